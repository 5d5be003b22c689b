//! RFC 3339 times as the API server writes and reads them, without a calendar library's
//! formatter and parser (jiff's `strtime` and its error texts were 60 KB of the web app).

use k8s_openapi::jiff::Timestamp;

/// `2026-01-01T00:00:05Z`: `metav1.Time`, whole seconds in UTC.
pub fn format_time(t: Timestamp) -> String {
    let mut out = String::with_capacity(20);
    write_civil(&mut out, floor_split(t).0);
    out.push('Z');
    out
}

/// `2026-01-01T00:00:05.250000Z`: `metav1.MicroTime`, microseconds in UTC.
pub fn format_micro_time(t: Timestamp) -> String {
    let mut out = String::with_capacity(27);
    let (secs, nanos) = floor_split(t);
    write_civil(&mut out, secs);
    out.push('.');
    push_digits(&mut out, nanos / 1000, 6);
    out.push('Z');
    out
}

/// Go's `time.RFC1123Z` in UTC: `Mon, 02 Jan 2006 15:04:05 +0000`.
pub fn format_rfc1123z(t: Timestamp) -> String {
    const DAYS: [&str; 7] = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"];
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let secs = floor_split(t).0;
    let days = secs.div_euclid(86_400);
    let (year, month, day) = civil_from_days(days);
    let rem = secs.rem_euclid(86_400);
    let mut out = String::with_capacity(31);
    // 1970-01-01 was a Thursday.
    out.push_str(DAYS[days.rem_euclid(7) as usize]);
    out.push_str(", ");
    push_digits(&mut out, day, 2);
    out.push(' ');
    out.push_str(MONTHS[(month - 1) as usize]);
    out.push(' ');
    push_digits(&mut out, year, 4);
    for (sep, v) in [(' ', rem / 3600), (':', rem / 60 % 60), (':', rem % 60)] {
        out.push(sep);
        push_digits(&mut out, v, 2);
    }
    out.push_str(" +0000");
    out
}

/// Go's `time.Time.String()` of a UTC time: `2006-01-02 15:04:05 +0000 UTC`.
pub fn format_go_utc(t: Timestamp) -> String {
    let mut out = String::with_capacity(29);
    write_civil(&mut out, floor_split(t).0);
    out.replace_range(10..11, " ");
    out.push_str(" +0000 UTC");
    out
}

/// Reads `2006-01-02T15:04:05Z07:00` (Go's `time.RFC3339`, which also takes a fraction of a
/// second): a date, `T`, a time, an optional fraction, then `Z` or an offset `±hh:mm`.
pub fn parse_time(s: &str) -> Option<Timestamp> {
    let b = s.as_bytes();
    let num = |from: usize, len: usize| -> Option<i64> {
        let digits = b.get(from..from + len)?;
        digits.iter().try_fold(0i64, |acc, d| {
            d.is_ascii_digit().then(|| acc * 10 + i64::from(d - b'0'))
        })
    };
    let sep = |at: usize, c: &[u8]| b.get(at).is_some_and(|x| c.contains(x));
    if !(sep(4, b"-") && sep(7, b"-") && sep(10, b"Tt") && sep(13, b":") && sep(16, b":")) {
        return None;
    }
    let (year, month, day) = (num(0, 4)?, num(5, 2)?, num(8, 2)?);
    let (hour, minute, second) = (num(11, 2)?, num(14, 2)?, num(17, 2)?);
    if !(1..=12).contains(&month)
        || day < 1
        || day > days_in_month(year, month)
        || hour > 23
        || minute > 59
        || second > 59
    {
        return None;
    }
    let mut at = 19;
    let mut nanos = 0i64;
    if sep(at, b".,") {
        at += 1;
        let start = at;
        while b.get(at).is_some_and(u8::is_ascii_digit) {
            at += 1;
        }
        let digits = at - start;
        if digits == 0 || digits > 9 {
            return None;
        }
        nanos = num(start, digits)? * 10i64.pow(9 - digits as u32);
    }
    let offset = match b.get(at) {
        Some(b'Z' | b'z') if at + 1 == b.len() => 0,
        Some(sign @ (b'+' | b'-')) if at + 6 == b.len() && sep(at + 3, b":") => {
            let (h, m) = (num(at + 1, 2)?, num(at + 4, 2)?);
            if h > 23 || m > 59 {
                return None;
            }
            let secs = h * 3600 + m * 60;
            if *sign == b'-' {
                -secs
            } else {
                secs
            }
        }
        _ => return None,
    };
    let days = days_from_civil(year, month, day);
    let secs = days * 86_400 + hour * 3600 + minute * 60 + second - offset;
    Timestamp::new(secs, i32::try_from(nanos).ok()?).ok()
}

/// Whole seconds rounded down and the nanoseconds past them (jiff's own split rounds toward
/// zero, which is a second late before 1970).
fn floor_split(t: Timestamp) -> (i64, i64) {
    let n = t.as_nanosecond();
    let secs = n.div_euclid(1_000_000_000);
    // jiff's range (years -9999..=9999) keeps both in i64.
    (secs as i64, n.rem_euclid(1_000_000_000) as i64)
}

fn is_leap(year: i64) -> bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
}

fn days_in_month(year: i64, month: i64) -> i64 {
    match month {
        2 if is_leap(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (eras of 400 years).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The date of a day count since 1970-01-01: (year, month, day).
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// `YYYY-MM-DDTHH:MM:SS` of a Unix second, in UTC.
fn write_civil(out: &mut String, secs: i64) {
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let (year, month, day) = civil_from_days(days);
    if year < 0 {
        out.push('-');
    }
    push_digits(out, year.abs(), 4);
    for (sep, v) in [
        ('-', month),
        ('-', day),
        ('T', rem / 3600),
        (':', rem / 60 % 60),
        (':', rem % 60),
    ] {
        out.push(sep);
        push_digits(out, v, 2);
    }
}

/// `v` in decimal, zero-padded to at least `width` digits.
fn push_digits(out: &mut String, v: i64, width: usize) {
    let s = v.to_string();
    for _ in s.len()..width {
        out.push('0');
    }
    out.push_str(&s);
}

#[cfg(test)]
mod tests {
    use super::*;
    use k8s_openapi::apimachinery::pkg::apis::meta::v1::{MicroTime, Time};
    use proptest::prelude::*;

    #[test]
    fn times_read_like_go_rfc3339() {
        let t = |s: &str| parse_time(s).map(|t| (t.as_second(), t.subsec_nanosecond()));
        assert_eq!(t("1970-01-01T00:00:00Z"), Some((0, 0)));
        assert_eq!(
            t("2024-02-29T12:00:00.5Z"),
            Some((1_709_208_000, 500_000_000))
        );
        assert_eq!(t("2024-01-31T12:00:00+01:00"), Some((1_706_698_800, 0)));
        assert_eq!(t("1969-12-31T23:59:59-00:30"), Some((1799, 0)));
        for bad in [
            "",
            "yesterday",
            "2024-02-30T00:00:00Z",
            "2023-02-29T00:00:00Z",
            "2024-01-31 12:00:00Z",
            "2024-01-31T24:00:00Z",
            "2024-01-31T12:00:00",
            "2024-01-31T12:00:00.Z",
            "2024-01-31T12:00:00Zjunk",
            "2024-01-31T12:00:00+0100",
        ] {
            assert_eq!(t(bad), None, "{bad}");
        }
    }

    proptest! {
        /// What k8s-openapi's serializer (jiff's `strtime`) writes, and reads back.
        #[test]
        fn times_write_as_k8s_openapi_does(secs in -62_135_596_800i64..253_402_300_799, nanos in 0i32..1_000_000_000) {
            let ts = Timestamp::new(secs, nanos).unwrap();
            let theirs = serde_json::to_value(Time(ts)).unwrap();
            prop_assert_eq!(theirs, serde_json::Value::String(format_time(ts)));
            let theirs = serde_json::to_value(MicroTime(ts)).unwrap();
            prop_assert_eq!(theirs, serde_json::Value::String(format_micro_time(ts)));
            let theirs = ts.strftime("%a, %d %b %Y %H:%M:%S +0000").to_string();
            prop_assert_eq!(theirs, format_rfc1123z(ts));
            let theirs = ts.strftime("%Y-%m-%d %H:%M:%S +0000 UTC").to_string();
            prop_assert_eq!(theirs, format_go_utc(ts));
            let back = parse_time(&format_micro_time(ts)).unwrap();
            prop_assert_eq!(back.as_nanosecond(), ts.as_nanosecond().div_euclid(1000) * 1000);
        }
    }
}
