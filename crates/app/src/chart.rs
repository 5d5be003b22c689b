//! The counters over virtual time, as an SVG line chart with a cursor at "now".

use crate::Ctx;
use leptos::prelude::*;

const W: f64 = 520.0;
const H: f64 = 220.0;
const PAD: f64 = 28.0;

/// The series drawn, with their CSS class.
const SERIES: [(&str, usize); 5] = [
    ("desired", 0),
    ("ready", 2),
    ("up-to-date", 3),
    ("available", 4),
    ("unavailable", 5),
];

#[component]
pub(crate) fn ChartPanel() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let data = Memo::new(move |_| {
        ctx.read(|s| {
            // The first DaemonSet's counters: (t, [desired, current, ready, up-to-date,
            // available, unavailable]).
            let first = s
                .samples()
                .iter()
                .find_map(|x| x.daemon_sets.first())
                .map(|d| (d.namespace.clone(), d.name.clone()));
            let samples: Vec<(f64, [i32; 6])> = s
                .samples()
                .iter()
                .filter_map(|x| {
                    let c = x.daemon_sets.iter().find(|c| {
                        Some((&c.namespace, &c.name)) == first.as_ref().map(|(a, b)| (a, b))
                    })?;
                    Some((
                        x.t(),
                        [
                            c.desired,
                            c.current,
                            c.ready,
                            c.up_to_date,
                            c.available,
                            c.unavailable,
                        ],
                    ))
                })
                .collect();
            (samples, s.elapsed(), s.horizon())
        })
    });
    view! {
        <section class="chart" aria-label="Counters over time">
            {move || data.with(|(samples, now, horizon)| {
                let t_max = horizon.max(*now).max(1.0);
                let y_max = samples
                    .iter()
                    .flat_map(|s| s.1.iter().map(|v| *v as f64))
                    .fold(1.0, f64::max);
                let x = |t: f64| PAD + (W - 2.0 * PAD) * t / t_max;
                let y = |v: f64| H - PAD - (H - 2.0 * PAD) * v / y_max;
                let lines = SERIES.iter().map(|(name, i)| {
                    // A step line: each value holds until the next sample.
                    let mut d = String::new();
                    let mut last: Option<f64> = None;
                    for (t, v) in samples.iter().map(|s| (s.0, s.1[*i] as f64)) {
                        match last {
                            None => d.push_str(&format!("M{:.1},{:.1}", x(t), y(v))),
                            Some(_) => d.push_str(&format!(" H{:.1} V{:.1}", x(t), y(v))),
                        }
                        last = Some(v);
                    }
                    if last.is_some() {
                        d.push_str(&format!(" H{:.1}", x(*now)));
                    }
                    view! { <path class=format!("series s-{name}") d=d fill="none"/> }
                }).collect_view();
                let cursor = x(*now);
                view! {
                    <svg viewBox=format!("0 0 {W} {H}") role="img"
                        aria-label="DESIRED, READY, UP-TO-DATE, AVAILABLE and unavailable over virtual time">
                        <line class="axis" x1=PAD y1=H - PAD x2=W - PAD y2=H - PAD/>
                        <line class="axis" x1=PAD y1=PAD x2=PAD y2=H - PAD/>
                        <text class="tick" x=PAD - 6.0 y=y(y_max) + 4.0 text-anchor="end">{format!("{y_max:.0}")}</text>
                        <text class="tick" x=PAD - 6.0 y=H - PAD + 4.0 text-anchor="end">"0"</text>
                        <text class="tick" x=W - PAD y=H - 8.0 text-anchor="end">{format!("{t_max:.0}s")}</text>
                        {lines}
                        <line class="now" x1=cursor y1=PAD - 8.0 x2=cursor y2=H - PAD/>
                    </svg>
                }
            })}
            <ul class="legend chart-legend">
                {SERIES.iter().map(|(n, _)| view! { <li><span class=format!("swatch line s-{n}")></span>{n.to_uppercase()}</li> }).collect_view()}
            </ul>
        </section>
    }
}
