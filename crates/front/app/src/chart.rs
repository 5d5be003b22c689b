//! The counters over virtual time, as SVG small multiples: one band a counter, all on the same
//! scale and the same time axis, with a cursor at "now" and each counter's value there. The
//! counters often coincide (all 4 once settled), so lines drawn over each other would hide all
//! but one; a band each keeps every counter visible.

use crate::{Ctx, Sim};
use leptos::prelude::*;

const W: f64 = 520.0;
/// The counter's name, left of its band.
const LABEL_W: f64 = 92.0;
/// The counter's value at now, right of its band.
const VALUE_W: f64 = 34.0;
const BAND_H: f64 = 30.0;
const BAND_GAP: f64 = 8.0;
const TOP: f64 = 6.0;
/// The time axis under the bands.
const AXIS_H: f64 = 20.0;

/// The series drawn, top to bottom, as `kubectl get ds` orders its columns (unavailable last),
/// with their CSS class and their index in a [`Point`]'s counters.
const SERIES: [(&str, usize); 6] = [
    ("desired", 0),
    ("current", 1),
    ("ready", 2),
    ("up-to-date", 3),
    ("available", 4),
    ("unavailable", 5),
];

/// One DaemonSet's counters at a sample's time: [desired, current, ready, up-to-date,
/// available, unavailable], or `None` while it does not exist.
pub(crate) type Point = (f64, Option<[i32; 6]>);

/// A step line through `points` (each value holds until the next point) in SVG path syntax; it
/// breaks while the DaemonSet does not exist and ends at `end`. With a `base`, the area under
/// it instead: each stretch closed down to that base.
fn step_path(
    points: &[Point],
    i: usize,
    x: impl Fn(f64) -> f64,
    y: impl Fn(f64) -> f64,
    end: f64,
    base: Option<f64>,
) -> String {
    let mut d = String::new();
    let close = |d: &mut String, at: f64| {
        d.push_str(&format!(" H{:.1}", x(at)));
        if let Some(b) = base {
            d.push_str(&format!(" V{b:.1} Z"));
        }
    };
    let mut drawing = false;
    for (t, v) in points {
        match (v, drawing) {
            (Some(v), false) => d.push_str(&match base {
                Some(b) => format!("M{:.1},{b:.1} V{:.1}", x(*t), y(v[i] as f64)),
                None => format!("M{:.1},{:.1}", x(*t), y(v[i] as f64)),
            }),
            (Some(v), true) => d.push_str(&format!(" H{:.1} V{:.1}", x(*t), y(v[i] as f64))),
            (None, true) => close(&mut d, *t),
            (None, false) => {}
        }
        drawing = v.is_some();
    }
    if drawing {
        close(&mut d, end);
    }
    d
}

/// A counter's value at `now`: the newest sample at or before it (`None` while the DaemonSet
/// does not exist then).
fn value_at(points: &[Point], i: usize, now: f64) -> Option<i32> {
    let at = points.partition_point(|(t, _)| *t <= now);
    at.checked_sub(1).and_then(|k| points[k].1).map(|v| v[i])
}

/// Time-axis ticks for `0..=t_max` seconds: a round step giving at most 6 intervals.
fn time_ticks(t_max: f64) -> Vec<f64> {
    const STEPS: [f64; 14] = [
        1.0, 2.0, 5.0, 10.0, 15.0, 30.0, 60.0, 120.0, 300.0, 600.0, 900.0, 1800.0, 3600.0, 7200.0,
    ];
    let step = STEPS
        .into_iter()
        .find(|s| t_max / s <= 6.0)
        .unwrap_or_else(|| (t_max / 6.0 / 3600.0).ceil() * 3600.0);
    (0..)
        .map(|k| k as f64 * step)
        .take_while(|t| *t <= t_max + 1e-9)
        .collect()
}

/// A tick's label: `45s`, `2m`, `1m30s`, `2h`.
fn time_label(t: f64) -> String {
    let s = t.round() as u64;
    match (s / 3600, s % 3600 / 60, s % 60) {
        (0, 0, s) => format!("{s}s"),
        (0, m, 0) => format!("{m}m"),
        (0, m, s) => format!("{m}m{s}s"),
        (h, 0, 0) => format!("{h}h"),
        (h, m, _) => format!("{h}h{m}m"),
    }
}

/// How the chart names a DaemonSet: its name, with the namespace unless it is `default`.
pub(crate) fn label(namespace: &str, name: &str) -> String {
    if namespace == "default" {
        name.to_string()
    } else {
        format!("{namespace}/{name}")
    }
}

/// Whether `label` names the DaemonSet `namespace`/`name` (as [`label`] writes it), without
/// building the label: the chart compares every sample's DaemonSets each frame.
fn is_labelled(label: &str, namespace: &str, name: &str) -> bool {
    if namespace == "default" {
        label == name
    } else {
        label
            .strip_prefix(namespace)
            .and_then(|rest| rest.strip_prefix('/'))
            == Some(name)
    }
}

/// The DaemonSet shown: the one chosen while it is among `names`, else the first.
fn shown(names: &[String], chosen: Option<&String>) -> Option<String> {
    chosen
        .filter(|c| names.contains(c))
        .or(names.first())
        .cloned()
}

#[component]
pub(crate) fn ChartPanel() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    // The DaemonSets seen so far, in order of appearance; the chart shows one.
    let names = Memo::new(move |_| {
        ctx.read(|s| {
            let mut names: Vec<String> = Vec::new();
            for d in s.samples().iter().flat_map(|x| &x.daemon_sets) {
                if !names.iter().any(|l| is_labelled(l, &d.namespace, &d.name)) {
                    names.push(label(&d.namespace, &d.name));
                }
            }
            names
        })
    });
    let chosen = RwSignal::new(None::<String>);
    let data = Memo::new(move |_| {
        let shown = chosen.with(|c| names.with(|n| shown(n, c.as_ref())));
        ctx.read(|s| (vec![points(s, shown.as_deref())], s.elapsed(), s.horizon()))
    });
    view! {
        <section class="chart" aria-label="Counters over time">
            {move || names.with(|n| n.len() > 1).then(|| view! {
                <label class="chart-ds">"DaemonSet "
                    <select aria-label="Chart DaemonSet"
                        on:change=move |ev| chosen.set(Some(event_target_value(&ev)))>
                        {move || {
                            let names = names.get();
                            let on = chosen.with(|c| shown(&names, c.as_ref()));
                            names.into_iter().map(|n| {
                                let selected = on.as_ref() == Some(&n);
                                let value = n.clone();
                                view! { <option value=value selected=selected>{n}</option> }
                            }).collect_view()
                        }}
                    </select>
                </label>
            })}
            {move || data.with(|(lines, now, horizon)| chart_svg(lines, *now, *horizon))}
        </section>
    }
}

/// The counters of the DaemonSet labelled `shown` (see [`label`]) at each sample.
pub(crate) fn points(s: &Sim, shown: Option<&str>) -> Vec<Point> {
    s.samples()
        .iter()
        .map(|x| {
            let c = x
                .daemon_sets
                .iter()
                .find(|c| shown.is_some_and(|l| is_labelled(l, &c.namespace, &c.name)));
            (
                x.t(),
                c.map(|c| {
                    [
                        c.desired,
                        c.current,
                        c.ready,
                        c.up_to_date,
                        c.available,
                        c.unavailable,
                    ]
                }),
            )
        })
        .collect()
}

/// The bands, each with one line per element of `lines` (the compare view's variants, told
/// apart by the CSS classes `v0`…`v3`: colour and dash pattern); one line also gets its area.
pub(crate) fn chart_svg(lines: &[Vec<Point>], now: f64, horizon: f64) -> impl IntoView {
    // Samples reach the horizon (what has been simulated), which may lie after now.
    let t_max = horizon.max(now).max(1.0);
    let y_max = lines
        .iter()
        .flatten()
        .flat_map(|p| p.1.iter().flatten().map(|v| *v as f64))
        .fold(1.0, f64::max);
    let value_w = VALUE_W * lines.len().max(1) as f64;
    let (x0, x1) = (LABEL_W, W - value_w);
    let x = move |t: f64| x0 + (x1 - x0) * t / t_max;
    let bands_h = SERIES.len() as f64 * (BAND_H + BAND_GAP) - BAND_GAP;
    let h = TOP + bands_h + AXIS_H;
    let mut said = Vec::new();
    let bands = SERIES.iter().enumerate().map(|(k, (name, i))| {
        let top = TOP + k as f64 * (BAND_H + BAND_GAP);
        let base = top + BAND_H;
        let y = move |v: f64| base - BAND_H * v / y_max;
        let area = (lines.len() == 1).then(|| {
            view! { <path class="area" d=step_path(&lines[0], *i, x, y, t_max, Some(base))/> }
        });
        let paths = lines.iter().enumerate().map(|(v, points)| view! {
            <path class=format!("series v{v}") d=step_path(points, *i, x, y, t_max, None) fill="none"/>
        }).collect_view();
        let shown = lines
            .iter()
            .map(|points| value_at(points, *i, now).map_or("–".to_string(), |v| v.to_string()))
            .collect::<Vec<_>>()
            .join(" / ");
        said.push(format!("{} {shown}", name.to_ascii_uppercase()));
        view! {
            <g class=format!("band s-{name}") data-series=*name>
                <text class="band-name" x=0 y=base - BAND_H / 2.0 + 4.0>{name.to_ascii_uppercase()}</text>
                <line class="grid" x1=x0 y1=top x2=x1 y2=top/>
                <line class="axis" x1=x0 y1=base x2=x1 y2=base/>
                {area}
                {paths}
                <text class="band-value" x=W y=base - BAND_H / 2.0 + 4.0 text-anchor="end">{shown}</text>
            </g>
        }
    }).collect_view();
    let ticks = time_ticks(t_max)
        .into_iter()
        .map(|t| {
            view! {
                <line class="axis" x1=x(t) y1=TOP + bands_h x2=x(t) y2=TOP + bands_h + 4.0/>
                <text class="tick" x=x(t) y=h - 4.0 text-anchor="middle">{time_label(t)}</text>
            }
        })
        .collect_view();
    let cursor = x(now);
    let label = format!(
        "The counters over virtual time, each from 0 to {y_max:.0}; at t = {now:.1}s: {}",
        said.join(", ")
    );
    view! {
        <svg viewBox=format!("0 0 {W} {h}") role="img" aria-label=label>
            // The scale every band shares: its top line is this many pods.
            <text class="tick y-max" x=x0 - 4.0 y=TOP + 4.0 text-anchor="end">{format!("{y_max:.0}")}</text>
            {bands}
            {ticks}
            <line class="now" x1=cursor y1=TOP - 4.0 x2=cursor y2=TOP + bands_h/>
        </svg>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_label_names_exactly_its_daemon_set() {
        for (ns, name) in [("default", "agent"), ("kube-system", "cni"), ("a", "b")] {
            assert!(is_labelled(&label(ns, name), ns, name));
        }
        assert!(!is_labelled("agent", "kube-system", "agent"));
        assert!(!is_labelled("kube-system/cni", "default", "cni"));
        assert!(!is_labelled("kube-system/cni", "kube", "system/cni"));
        assert!(!is_labelled("kube-system/cn", "kube-system", "cni"));
    }

    #[test]
    fn a_line_breaks_while_its_daemon_set_does_not_exist_and_runs_to_the_end() {
        let v = |n: i32| Some([n, 0, 0, 0, 0, 0]);
        let points = [
            (0.0, v(4)),
            (2.0, v(3)),
            (4.0, None),
            (6.0, v(4)),
            (7.0, v(4)),
        ];
        let id = |t: f64| t;
        assert_eq!(
            step_path(&points, 0, id, id, 10.0, None),
            "M0.0,4.0 H2.0 V3.0 H4.0M6.0,4.0 H7.0 V4.0 H10.0"
        );
        // Gone at the end: the line stops where the DaemonSet went.
        assert_eq!(
            step_path(&points[..3], 0, id, id, 10.0, None),
            "M0.0,4.0 H2.0 V3.0 H4.0"
        );
        assert_eq!(step_path(&[(1.0, None)], 0, id, id, 10.0, None), "");
        // The area under it: a closed shape for each stretch, down to the base.
        assert_eq!(
            step_path(&points, 0, id, id, 10.0, Some(0.0)),
            "M0.0,0.0 V4.0 H2.0 V3.0 H4.0 V0.0 ZM6.0,0.0 V4.0 H7.0 V4.0 H10.0 V0.0 Z"
        );
    }

    #[test]
    fn the_value_at_now_is_the_newest_sample_at_or_before_it() {
        let v = |n: i32| Some([0, 0, n, 0, 0, 0]);
        let points = [(0.0, v(0)), (2.0, v(3)), (4.0, None), (6.0, v(4))];
        assert_eq!(value_at(&points, 2, 0.0), Some(0));
        assert_eq!(value_at(&points, 2, 3.9), Some(3));
        assert_eq!(value_at(&points, 2, 2.0), Some(3));
        assert_eq!(
            value_at(&points, 2, 5.0),
            None,
            "the DaemonSet does not exist then"
        );
        assert_eq!(value_at(&points, 2, 60.0), Some(4));
        assert_eq!(
            value_at(&points[1..], 2, 1.0),
            None,
            "before the first sample"
        );
    }

    #[test]
    fn time_ticks_are_round_and_at_most_six_intervals() {
        assert_eq!(time_ticks(5.0), [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]);
        assert_eq!(time_ticks(7.5), [0.0, 2.0, 4.0, 6.0]);
        assert_eq!(time_ticks(95.0), [0.0, 30.0, 60.0, 90.0]);
        assert_eq!(time_ticks(1000.0).len(), 4, "0, 5m, 10m, 15m");
        assert!(time_ticks(100_000.0).len() <= 7);
        assert_eq!(
            [0.0, 45.0, 60.0, 90.0, 3600.0, 5400.0].map(time_label),
            ["0s", "45s", "1m", "1m30s", "1h", "1h30m"]
        );
    }
}
