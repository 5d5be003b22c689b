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

/// One DaemonSet's counters at a sample's time: [desired, current, ready, up-to-date,
/// available, unavailable], or `None` while it does not exist.
type Point = (f64, Option<[i32; 6]>);

/// A step line through `points` (each value holds until the next point) in SVG path syntax; it
/// breaks while the DaemonSet does not exist and ends at `end`.
fn step_path(
    points: &[Point],
    i: usize,
    x: impl Fn(f64) -> f64,
    y: impl Fn(f64) -> f64,
    end: f64,
) -> String {
    let mut d = String::new();
    let mut drawing = false;
    for (t, v) in points {
        match (v, drawing) {
            (Some(v), false) => d.push_str(&format!("M{:.1},{:.1}", x(*t), y(v[i] as f64))),
            (Some(v), true) => d.push_str(&format!(" H{:.1} V{:.1}", x(*t), y(v[i] as f64))),
            (None, true) => d.push_str(&format!(" H{:.1}", x(*t))),
            (None, false) => {}
        }
        drawing = v.is_some();
    }
    if drawing {
        d.push_str(&format!(" H{:.1}", x(end)));
    }
    d
}

/// How the chart names a DaemonSet: its name, with the namespace unless it is `default`.
fn label(namespace: &str, name: &str) -> String {
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
        ctx.read(|s| {
            let points: Vec<Point> = s
                .samples()
                .iter()
                .map(|x| {
                    let c = x.daemon_sets.iter().find(|c| {
                        shown
                            .as_deref()
                            .is_some_and(|l| is_labelled(l, &c.namespace, &c.name))
                    });
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
                .collect();
            (points, s.elapsed(), s.horizon())
        })
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
            {move || data.with(|(points, now, horizon)| {
                // Samples reach the horizon (what has been simulated), which may lie after now.
                let t_max = horizon.max(*now).max(1.0);
                let y_max = points
                    .iter()
                    .flat_map(|p| p.1.iter().flatten().map(|v| *v as f64))
                    .fold(1.0, f64::max);
                let x = |t: f64| PAD + (W - 2.0 * PAD) * t / t_max;
                let y = |v: f64| H - PAD - (H - 2.0 * PAD) * v / y_max;
                let lines = SERIES.iter().map(|(name, i)| {
                    let d = step_path(points, *i, x, y, t_max);
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
                {SERIES.iter().map(|(n, _)| view! { <li><span class=format!("swatch line s-{n}")></span>{n.to_ascii_uppercase()}</li> }).collect_view()}
            </ul>
        </section>
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
            step_path(&points, 0, id, id, 10.0),
            "M0.0,4.0 H2.0 V3.0 H4.0M6.0,4.0 H7.0 V4.0 H10.0"
        );
        // Gone at the end: the line stops where the DaemonSet went.
        assert_eq!(
            step_path(&points[..3], 0, id, id, 10.0),
            "M0.0,4.0 H2.0 V3.0 H4.0"
        );
        assert_eq!(step_path(&[(1.0, None)], 0, id, id, 10.0), "");
    }
}
