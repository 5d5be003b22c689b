//! `resource.Quantity` against the cases of apimachinery's `quantity_test.go`
//! (`TestQuantityParse`, `TestParseQuantityString`, `TestQuantityCmp`, `TestScaledValue`,
//! `TestNewSet`, `TestMilliNewSet`), restated as tables of our own, plus the edges the
//! scanner and the suffix table decide.

use k8s_base::quantity::{Format, Quantity, QuantityError};
use std::cmp::Ordering;

use Format::{BinarySI as B, DecimalExponent as X, DecimalSI as D};

/// 2⁶³−1: upstream's cap on binary-SI values.
const CAP: i128 = i64::MAX as i128;

/// `m × 10^e`, normalized as `to_decimal` gives it.
fn dec(mut m: i128, mut e: i32) -> (i128, i32) {
    if m == 0 {
        return (0, 0);
    }
    while m % 10 == 0 {
        m /= 10;
        e += 1;
    }
    (m, e)
}

fn parsed(s: &str) -> (i128, i32, Format) {
    match Quantity::parse(s) {
        Ok(q) => {
            let (m, e) = q.to_decimal();
            (m, e, q.format())
        }
        Err(err) => panic!("{s:?}: {err}"),
    }
}

/// Input, value as (mantissa, exponent), format after parsing.
const VALID: &[(&str, i128, i32, Format)] = &[
    // Zero in every suffix keeps the suffix's format.
    ("0", 0, 0, D),
    ("0n", 0, 0, D),
    ("0u", 0, 0, D),
    ("0m", 0, 0, D),
    ("0Ki", 0, 0, B),
    ("0k", 0, 0, D),
    ("0Mi", 0, 0, B),
    ("0M", 0, 0, D),
    ("0Gi", 0, 0, B),
    ("0G", 0, 0, D),
    ("0Ti", 0, 0, B),
    ("0T", 0, 0, D),
    // A bare number.
    ("1", 1, 0, D),
    // Powers of 1024.
    ("1Ki", 1024, 0, B),
    ("8Ki", 8 * 1024, 0, B),
    ("7Mi", 7 << 20, 0, B),
    ("6Gi", 6 << 30, 0, B),
    ("5Ti", 5 << 40, 0, B),
    ("4Pi", 4 << 50, 0, B),
    ("3Ei", 3 << 60, 0, B),
    ("10Ti", 10 << 40, 0, B),
    ("100Ti", 100 << 40, 0, B),
    // Powers of 1000, lowercase below one, uppercase above (but `k`).
    ("5n", 5, -9, D),
    ("4u", 4, -6, D),
    ("3m", 3, -3, D),
    ("9", 9, 0, D),
    ("8k", 8, 3, D),
    ("50k", 5, 4, D),
    ("7M", 7, 6, D),
    ("6G", 6, 9, D),
    ("5T", 5, 12, D),
    ("40T", 4, 13, D),
    ("300T", 3, 14, D),
    ("2P", 2, 15, D),
    ("1E", 1, 18, D),
    // Exponents, either case, signed or not.
    ("1E-3", 1, -3, X),
    ("1e3", 1, 3, X),
    ("1E3", 1, 3, X),
    ("1E6", 1, 6, X),
    ("1e9", 1, 9, X),
    ("1E12", 1, 12, X),
    ("1e13", 1, 13, X),
    ("1e14", 1, 14, X),
    ("1e15", 1, 15, X),
    ("1E18", 1, 18, X),
    ("100.035k", 100035, 0, D),
    // Fractions, with trailing zeros or not.
    ("0.001", 1, -3, D),
    ("0.0005k", 5, -1, D),
    ("0.005", 5, -3, D),
    ("0.05", 5, -2, D),
    ("0.5", 5, -1, D),
    ("0.00050k", 5, -1, D),
    ("0.00500", 5, -3, D),
    ("0.05000", 5, -2, D),
    ("0.50000", 5, -1, D),
    ("0.5e0", 5, -1, X),
    ("0.5e-1", 5, -2, X),
    ("0.5e-2", 5, -3, X),
    ("10.035M", 10035, 3, D),
    ("1.2e3", 12, 2, X),
    ("1.3E+6", 13, 5, X),
    ("1.40e9", 14, 8, X),
    ("1.53E12", 153, 10, X),
    ("1.6e15", 16, 14, X),
    ("1.7E18", 17, 17, X),
    ("9.01", 901, -2, D),
    ("8.1k", 81, 2, D),
    ("7.123456M", 7123456, 0, D),
    ("6.987654321G", 6987654321, 0, D),
    ("5.444T", 5444, 9, D),
    ("40.1T", 401, 11, D),
    ("300.2T", 3002, 11, D),
    ("2.5P", 25, 14, D),
    ("1.01E", 101, 16, D),
    // Below one nano: rounded up to the next nano.
    ("3.001n", 4, -9, D),
    ("1.1E-9", 2, -9, X),
    ("0.0000000001", 1, -9, D),
    ("0.0000000005", 1, -9, D),
    ("0.00000000050", 1, -9, D),
    ("0.5e-9", 1, -9, X),
    ("0.9n", 1, -9, D),
    ("0.00000012345", 124, -9, D),
    ("0.00000012354", 124, -9, D),
    ("1e-10", 1, -9, X),
    // Binary SI is capped at 2⁶³−1; decimal SI is not.
    ("9Ei", CAP, 0, B),
    ("8Ei", CAP, 0, B),
    ("9223372036854775807Ki", CAP, 0, B),
    ("99999999999999999999999999999999999999Ei", CAP, 0, B),
    ("7.99Ei", 921184282180870733824, -2, B),
    ("12E", 12, 18, D),
    ("1e1000", 1, 1000, X),
    // Fractions of binary suffixes are exact.
    ("100.035Ki", 10243584, -2, B),
    ("0.5Mi", 524288, 0, B),
    ("0.05Gi", 536870912, -1, B),
    ("0.025Ti", 274877906944, -1, B),
    ("1.5Gi", 1610612736, 0, B),
    // Odd spellings upstream accepts: a binary value under one turns decimal SI.
    ("0.000000000001Ki", 2, -9, D),
    (".001", 1, -3, D),
    (".0001k", 1, -1, D),
    (".5", 5, -1, D),
    ("5.", 5, 0, D),
    ("1.", 1, 0, D),
    ("1.G", 1, 9, D),
    ("007", 7, 0, D),
    // The scanner lets a missing number through as zero.
    (".", 0, 0, D),
    ("Ki", 0, 0, B),
    ("Ti", 0, 0, B),
    ("m", 0, 0, D),
    ("E", 0, 0, D),
    ("e3", 0, 0, X),
];

#[test]
fn valid_quantities_have_upstreams_value_and_format() {
    for &(input, m, e, format) in VALID {
        let (m, e) = dec(m, e);
        assert_eq!(parsed(input), (m, e, format), "{input}");
    }
}

#[test]
fn a_sign_negates_and_a_plus_changes_nothing() {
    for &(input, m, e, format) in VALID {
        let (m, e) = dec(m, e);
        assert_eq!(parsed(&format!("-{input}")), (-m, e, format), "-{input}");
        assert_eq!(parsed(&format!("+{input}")), (m, e, format), "+{input}");
    }
    assert_eq!(parsed("-1"), (-1, 0, D));
    assert_eq!(parsed("+1"), (1, 0, D));
    assert_eq!(parsed("-"), (0, 0, D));
    assert_eq!(parsed("+"), (0, 0, D));
    assert_eq!(parsed("-0"), (0, 0, D));
}

const INVALID: &[(&str, QuantityError)] = &[
    ("", QuantityError::FormatWrong),
    ("1.1.M", QuantityError::FormatWrong),
    ("1+1.0M", QuantityError::FormatWrong),
    ("0.1am", QuantityError::FormatWrong),
    ("aoeu", QuantityError::FormatWrong),
    ("1KI", QuantityError::FormatWrong),
    ("1Zi", QuantityError::FormatWrong),
    ("10%", QuantityError::FormatWrong),
    // No whitespace on either side (JSON decoding trims; parsing does not).
    (" 1", QuantityError::FormatWrong),
    ("1 ", QuantityError::FormatWrong),
    // Letters of the right set that make no suffix. `K` is not `k`.
    ("1K", QuantityError::Suffix),
    ("512K", QuantityError::Suffix),
    ("0.1mi", QuantityError::Suffix),
    (".5i", QuantityError::Suffix),
    ("1i", QuantityError::Suffix),
    ("-3.01i", QuantityError::Suffix),
    ("1e", QuantityError::Suffix),
    ("1e+", QuantityError::Suffix),
    ("-3.01e-", QuantityError::Suffix),
    ("1.5kk", QuantityError::Suffix),
    ("1m5", QuantityError::Suffix),
    ("--1", QuantityError::Suffix),
    ("1e99999999999999999999", QuantityError::Suffix),
    // No digit where upstream's inf.Dec path must read one.
    ("Pi", QuantityError::Numeric),
    ("Ei", QuantityError::Numeric),
    ("-.Ei", QuantityError::Numeric),
    ("e-10", QuantityError::Numeric),
    // More significant digits than we keep (upstream keeps them all).
    (
        "1234567890123456789012345678901234567891",
        QuantityError::Numeric,
    ),
    ("10e2147483647", QuantityError::Numeric),
];

#[test]
fn invalid_quantities_fail_with_upstreams_error() {
    for &(input, error) in INVALID {
        assert_eq!(Quantity::parse(input), Err(error), "{input:?}");
    }
}

#[test]
fn errors_are_worded_as_upstream() {
    assert_eq!(
        QuantityError::FormatWrong.to_string(),
        "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"
    );
    assert_eq!(
        QuantityError::Numeric.to_string(),
        "unable to parse numeric part of quantity"
    );
    assert_eq!(
        QuantityError::Suffix.to_string(),
        "unable to parse quantity's suffix"
    );
}

#[test]
fn comparison_is_by_value() {
    let q = |s: &str| Quantity::parse(s).unwrap();
    for (a, b, expected) in [
        ("0", "0", Ordering::Equal),
        ("100m", "50m", Ordering::Greater),
        ("50m", "100m", Ordering::Less),
        ("10000T", "100Gi", Ordering::Greater),
        ("1", "1000m", Ordering::Equal),
        ("1Ki", "1024", Ordering::Equal),
        ("1k", "1e3", Ordering::Equal),
        ("0Ki", "-0", Ordering::Equal),
        ("-1", "1n", Ordering::Less),
        ("-2", "-1", Ordering::Less),
        ("-1n", "0", Ordering::Less),
        ("1e1000", "9Ei", Ordering::Greater),
        ("0.5", "1", Ordering::Less),
        ("999m", "1", Ordering::Less),
        ("1001m", "1", Ordering::Greater),
        ("0.1", "100m", Ordering::Equal),
        ("0.3", "300m", Ordering::Equal),
    ] {
        assert_eq!(q(a).cmp(&q(b)), expected, "{a} vs {b}");
        assert_eq!(q(b).cmp(&q(a)), expected.reverse(), "{b} vs {a}");
        assert_eq!(q(a) == q(b), expected == Ordering::Equal, "{a} == {b}");
    }
}

#[test]
fn scaled_values_round_up_away_from_zero() {
    let q = |s: &str| Quantity::parse(s).unwrap();
    // TestScaledValue: one unit at one scale read at another.
    for (input, scale, expected) in [
        ("1n", -9, 1),
        ("1n", -6, 1),
        ("1n", -3, 1),
        ("1n", 0, 1),
        ("1u", -9, 1000),
        ("1u", -6, 1),
        ("1u", -3, 1),
        ("1u", 0, 1),
        ("1m", -9, 1_000_000),
        ("1m", -6, 1000),
        ("1m", -3, 1),
        ("1m", 0, 1),
        ("1", -9, 1_000_000_000),
        ("1", -6, 1_000_000),
        ("1", -3, 1000),
        ("1", 0, 1),
        ("1e2", -2, 10_000),
    ] {
        assert_eq!(q(input).scaled_value(scale), expected, "{input} at {scale}");
    }
    // TestNewSet and TestMilliNewSet, read back.
    for (input, value) in [
        ("1", 1),
        ("1k", 1000),
        ("1234k", 1_234_000),
        ("1Ki", 1024),
        ("1e6", 1_000_000),
        ("1Mi", 1_048_576),
    ] {
        assert_eq!(q(input).value(), value, "{input}");
    }
    for (input, milli) in [
        ("1m", 1),
        ("1", 1000),
        ("1234", 1_234_000),
        ("1e3", 1_000_000),
    ] {
        assert_eq!(q(input).milli_value(), milli, "{input}");
    }
    // What the scheduler reads: cpu in millicores, memory in milli-bytes.
    for (input, milli) in [
        ("250m", 250),
        ("2", 2000),
        ("1.5", 1500),
        ("0.1", 100),
        ("1Ki", 1_024_000),
        ("1Gi", 1_073_741_824_000),
        ("1G", 1_000_000_000_000),
        ("110", 110_000),
    ] {
        assert_eq!(q(input).as_scaled_i128(-3), Some(milli), "{input}");
    }
    assert_eq!(q("1.5").value(), 2);
    assert_eq!(q("-1.5").value(), -2);
    assert_eq!(q("-1.5").milli_value(), -1500);
    assert_eq!(q("-1n").value(), -1);
    assert_eq!(q("0.5Ki").value(), 512);
    assert_eq!(q("250m").milli_value(), 250);
    assert_eq!(q("1n").milli_value(), 1);
    assert_eq!(q("9Ei").value(), i64::MAX);
    // Upstream overflows here; we saturate.
    assert_eq!(q("12E").value(), i64::MAX);
    assert_eq!(q("-12E").value(), i64::MIN);
    assert_eq!(q("9Ei").milli_value(), i64::MAX);
    // The wide form does not overflow where an i64 would.
    assert_eq!(q("8Ei").as_scaled_i128(-3), Some(CAP * 1000));
    assert_eq!(
        q("128Mi").as_scaled_i128(-3),
        Some(128 * 1024 * 1024 * 1000)
    );
    assert_eq!(q("1e1000").as_scaled_i128(0), None);
    assert_eq!(q("1e-9").as_scaled_i128(40), Some(1));
    assert_eq!(q("0").as_scaled_i128(-3), Some(0));
}

#[test]
fn stored_text_is_trimmed_as_json_decoding_trims_it() {
    assert_eq!(Quantity::parse_trimmed(" 1 "), Quantity::parse("1"));
    assert_eq!(Quantity::parse_trimmed("\t250m\n"), Quantity::parse("250m"));
    assert_eq!(
        Quantity::parse_trimmed("  "),
        Err(QuantityError::FormatWrong)
    );
    assert_eq!(Quantity::parse(" 1"), Err(QuantityError::FormatWrong));
}

#[test]
fn from_str_is_parse() {
    assert_eq!("250m".parse::<Quantity>(), Quantity::parse("250m"));
    assert_eq!("1K".parse::<Quantity>(), Err(QuantityError::Suffix));
}
