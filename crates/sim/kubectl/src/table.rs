//! Text layout as kubectl does it: Go's `text/tabwriter` (elastic tab stops) and the duration
//! and timestamp formats of `k8s.io/apimachinery` (`duration.HumanDuration`).

use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;
use k8s_openapi::jiff::Timestamp;

/// Go's `tabwriter.Writer` with `padchar ' '` and no flags: cells end at `\t`, a column block is
/// a run of consecutive lines that have a cell in that column, the last cell of a line is not
/// aligned. `flush` ends all blocks (describe's `w.Flush()`).
#[derive(Debug)]
pub(crate) struct TabWriter {
    minwidth: usize,
    padding: usize,
    buf: String,
    out: String,
}

impl TabWriter {
    /// `printers.GetNewTabWriter`: tables of `kubectl get` (minwidth 6, padding 3).
    pub(crate) fn table() -> TabWriter {
        TabWriter::new(6, 3)
    }

    /// `describe.tabbedString` and `rollout history` (minwidth 0, padding 2).
    pub(crate) fn describe() -> TabWriter {
        TabWriter::new(0, 2)
    }

    fn new(minwidth: usize, padding: usize) -> TabWriter {
        TabWriter {
            minwidth,
            padding,
            buf: String::new(),
            out: String::new(),
        }
    }

    pub(crate) fn write(&mut self, s: &str) {
        self.buf.push_str(s);
    }

    /// Writes one row: cells joined by tabs, then a newline.
    pub(crate) fn row<S: AsRef<str>>(&mut self, cells: &[S]) {
        let line: Vec<&str> = cells.iter().map(AsRef::as_ref).collect();
        self.buf.push_str(&line.join("\t"));
        self.buf.push('\n');
    }

    pub(crate) fn flush(&mut self) {
        let text = std::mem::take(&mut self.buf);
        self.out
            .push_str(&format_text(&text, self.minwidth, self.padding));
    }

    pub(crate) fn finish(mut self) -> String {
        self.flush();
        self.out
    }
}

fn format_text(text: &str, minwidth: usize, padding: usize) -> String {
    if text.is_empty() {
        return String::new();
    }
    let lines: Vec<Vec<&str>> = text.split('\n').map(|l| l.split('\t').collect()).collect();
    let mut out = String::with_capacity(text.len() * 2);
    let mut widths = Vec::new();
    let n = lines.len();
    format_block(&lines, 0, n, &mut widths, minwidth, padding, &mut out);
    out
}

fn cell_width(s: &str) -> usize {
    s.chars().count()
}

fn format_block(
    lines: &[Vec<&str>],
    mut line0: usize,
    line1: usize,
    widths: &mut Vec<usize>,
    minwidth: usize,
    padding: usize,
    out: &mut String,
) {
    let column = widths.len();
    let mut this = line0;
    while this < line1 {
        let line = &lines[this];
        if column + 1 >= line.len() {
            this += 1;
            continue;
        }
        write_lines(lines, line0, this, widths, out);
        line0 = this;
        let mut width = minwidth;
        while this < line1 {
            let line = &lines[this];
            if column + 1 >= line.len() {
                break;
            }
            width = width.max(cell_width(line[column]) + padding);
            this += 1;
        }
        widths.push(width);
        format_block(lines, line0, this, widths, minwidth, padding, out);
        widths.pop();
        line0 = this;
    }
    write_lines(lines, line0, line1, widths, out);
}

fn write_lines(
    lines: &[Vec<&str>],
    line0: usize,
    line1: usize,
    widths: &[usize],
    out: &mut String,
) {
    for (i, line) in lines.iter().enumerate().take(line1).skip(line0) {
        for (j, cell) in line.iter().enumerate() {
            out.push_str(cell);
            if let Some(w) = widths.get(j) {
                if j + 1 < line.len() {
                    for _ in cell_width(cell)..*w {
                        out.push(' ');
                    }
                }
            }
        }
        if i + 1 < lines.len() {
            out.push('\n');
        }
    }
}

/// `duration.HumanDuration` on whole seconds.
pub(crate) fn human_duration(seconds: i64) -> String {
    if seconds < -1 {
        return "<invalid>".into();
    }
    if seconds < 0 {
        return "0s".into();
    }
    if seconds < 60 * 2 {
        return format!("{seconds}s");
    }
    let minutes = seconds / 60;
    if minutes < 10 {
        return two_units(minutes, "m", seconds % 60, "s");
    }
    if minutes < 60 * 3 {
        return format!("{minutes}m");
    }
    let hours = seconds / 3600;
    if hours < 8 {
        return two_units(hours, "h", minutes % 60, "m");
    }
    if hours < 48 {
        return format!("{hours}h");
    }
    if hours < 24 * 8 {
        return two_units(hours / 24, "d", hours % 24, "h");
    }
    if hours < 24 * 365 * 2 {
        return format!("{}d", hours / 24);
    }
    if hours < 24 * 365 * 8 {
        return two_units(hours / 24 / 365, "y", (hours / 24) % 365, "d");
    }
    format!("{}y", hours / 24 / 365)
}

/// `5m`, or `5m30s` when the smaller unit's count is not zero (HumanDuration's two-unit forms).
fn two_units(big: i64, big_unit: &str, small: i64, small_unit: &str) -> String {
    if small == 0 {
        format!("{big}{big_unit}")
    } else {
        format!("{big}{big_unit}{small}{small_unit}")
    }
}

/// `translateTimestampSince`: the AGE column; `<unknown>` when unset.
pub fn age(t: Option<&Time>, now: Timestamp) -> String {
    match t {
        Some(t) => age_ts(t.0, now),
        None => "<unknown>".into(),
    }
}

pub(crate) fn age_ts(t: Timestamp, now: Timestamp) -> String {
    human_duration(now.duration_since(t).as_secs())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn human_duration_matches_apimachinery() {
        let cases = [
            (0, "0s"),
            (119, "119s"),
            (120, "2m"),
            (303, "5m3s"),
            (600, "10m"),
            (3 * 3600, "3h"),
            (3 * 3600 + 60 * 5, "3h5m"),
            (8 * 3600, "8h"),
            (51 * 3600, "2d3h"),
            (9 * 86400, "9d"),
            (800 * 86400, "2y70d"),
            (-5, "<invalid>"),
        ];
        for (s, want) in cases {
            assert_eq!(human_duration(s), want, "{s}");
        }
    }

    #[test]
    fn tabwriter_aligns_blocks_and_leaves_last_cell() {
        let mut w = TabWriter::describe();
        w.write("Name:\tx\nLonger Name:\ty\nPlain line\nA:\tb\n");
        assert_eq!(
            w.finish(),
            "Name:         x\nLonger Name:  y\nPlain line\nA:  b\n"
        );
        let mut t = TabWriter::table();
        t.row(&["NAME", "AGE"]);
        t.row(&["a", "5s"]);
        assert_eq!(t.finish(), "NAME   AGE\na      5s\n");
    }
}
