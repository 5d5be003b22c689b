//! `resource.Quantity` of `k8s.io/apimachinery/pkg/api/resource` (`quantity.go`, `suffix.go`,
//! `amount.go`, `scale_int.go`): a fixed-point number with a suffix, as the API server reads
//! `cpu: 250m` or `memory: 1.5Gi`.
//!
//! Upstream's rules, kept here:
//! - The grammar is `parseQuantityString`'s scanner, which is looser than the regular
//!   expression its error quotes: an optional sign, digits with at most one `.`, then suffix
//!   letters from `eEinumkKMGTP`, an optional sign and digits. Whatever it lets through is a
//!   quantity — `.`, `+`, `-`, `Ki` and `m` alone are zero, `5.` is 5, `.5` is 0.5 (but `Pi`
//!   and `Ei` alone are `ErrNumeric`: upstream reads them on its `inf.Dec` path, which wants
//!   a digit).
//! - Suffixes (`suffixer.interpret`): decimal SI `n u m "" k M G T P E`, binary SI
//!   `Ki Mi Gi Ti Pi Ei`, or a decimal exponent `e`/`E` followed by a Go `int64` (cut to 32
//!   bits as Go's `int32(…)` cuts it). Nothing else: `1K`, `1KI`, `1mi` are not quantities.
//! - The value is exact (never a float), rounded up — away from zero — to a multiple of 1n
//!   (10⁻⁹); a binary-SI value is capped at 2⁶³−1 in magnitude; a binary-SI value strictly
//!   between −1 and 1 takes the decimal-SI format.
//! - Errors are upstream's three, worded as upstream words them ([`QuantityError`]).
//!
//! Where we differ, on inputs no manifest has: upstream keeps arbitrarily many digits
//! (`inf.Dec`); we keep 38 significant digits — far beyond 2⁶³ at nano precision — and call a
//! decimal quantity with more [`QuantityError::Numeric`]; an exponent whose normalized form
//! does not fit 32 bits likewise. [`Quantity::scaled_value`] saturates at the `i64` bounds
//! where upstream's `ScaledValue` overflows silently.
//!
//! A quantity is a value: [`Quantity`]'s `==` and `<` compare values, as upstream's `Cmp`
//! does, whatever the format (`1` == `1000m`, `1Ki` == `1024`).

use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

/// How a quantity was written, which upstream keeps to print it back (`Format` in
/// `quantity.go`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// `12e6`: an `e`/`E` exponent.
    DecimalExponent,
    /// `12Mi`: a power of 1024.
    BinarySI,
    /// `12M`, `12m`, `12`: a power of 1000, or no suffix.
    DecimalSI,
}

/// The regular expression upstream's format error quotes (`splitREString`).
pub const SPLIT_RE: &str = "^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$";

/// Why a string is not a quantity: `ParseQuantity`'s three errors. `Display` prints upstream's
/// messages, which the API server returns as they are (`Pod in version "v1" cannot be handled
/// as a Pod: unable to parse quantity's suffix`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QuantityError {
    /// `ErrFormatWrong`: empty, or a character the scanner does not accept where it is.
    FormatWrong,
    /// `ErrNumeric`: the number cannot be read (here also: more digits than we keep).
    Numeric,
    /// `ErrSuffix`: the letters after the number are no suffix (`1K`, `1mi`, `1e`).
    Suffix,
}

impl fmt::Display for QuantityError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            QuantityError::FormatWrong => write!(
                f,
                "quantities must match the regular expression '{SPLIT_RE}'"
            ),
            QuantityError::Numeric => f.write_str("unable to parse numeric part of quantity"),
            QuantityError::Suffix => f.write_str("unable to parse quantity's suffix"),
        }
    }
}

impl std::error::Error for QuantityError {}

/// A parsed quantity: `mantissa × 10^exponent`, exact, with the format it was written in.
///
/// The mantissa has no trailing decimal zero (zero is `0 × 10⁰`), so each value has one
/// representation. Equality and order are by value only (upstream's `Cmp`/`Equal`).
#[derive(Clone, Copy, Debug)]
pub struct Quantity {
    mantissa: i128,
    exponent: i32,
    format: Format,
}

/// 2⁶³−1 in nano-units: upstream's cap (`maxAllowed`) on binary-SI values.
const BINARY_CAP_NANO: u128 = (i64::MAX as u128) * 1_000_000_000;

impl Quantity {
    /// `ParseQuantity(s)`. No whitespace is trimmed: upstream's JSON decoding trims
    /// (`UnmarshalJSON` calls `strings.TrimSpace` first), `ParseQuantity` itself refuses ` 1`.
    pub fn parse(s: &str) -> Result<Quantity, QuantityError> {
        if s.is_empty() {
            return Err(QuantityError::FormatWrong);
        }
        let parts = scan(s)?;
        let (base, exponent, format) = interpret(parts.suffix)?;
        // A number part with no digit at all (`""`, `.`, `-`) is zero where upstream's int64
        // path reads it; where it takes the `inf.Dec` path instead — `Pi`, `Ei`, or an
        // exponent below −9 — `inf.Dec` finds no digit and the error is `ErrNumeric`.
        if !parts.has_digit
            && match base {
                Base::Ten => exponent < -9,
                Base::Two => exponent >= 50,
            }
        {
            return Err(QuantityError::Numeric);
        }
        let (magnitude, exponent10) = match base {
            Base::Ten => decimal_value(parts.int, parts.frac, exponent)?,
            Base::Two => binary_value(parts.int, parts.frac, exponent),
        };
        let mantissa = i128::try_from(magnitude).map_err(|_| QuantityError::Numeric)?;
        let mantissa = if parts.negative { -mantissa } else { mantissa };
        let mut q = Quantity::normalized(mantissa, exponent10)?;
        // Upstream: a binary-SI amount strictly between 0 and 1 (in magnitude) is shown as
        // decimal SI, which shows it without rounding.
        q.format = format;
        if format == Format::BinarySI && q.mantissa != 0 && q.order_of_magnitude() <= 0 {
            q.format = Format::DecimalSI;
        }
        Ok(q)
    }

    /// What `UnmarshalJSON` does with a quantity's text: `strings.TrimSpace`, then
    /// `ParseQuantity`. For text stored in an object, which the decoder kept as written.
    pub fn parse_trimmed(s: &str) -> Result<Quantity, QuantityError> {
        Quantity::parse(s.trim())
    }

    fn normalized(mut mantissa: i128, exponent: i64) -> Result<Quantity, QuantityError> {
        let mut exponent = exponent;
        if mantissa == 0 {
            exponent = 0;
        }
        while mantissa != 0 && mantissa % 10 == 0 {
            mantissa /= 10;
            exponent += 1;
        }
        let exponent = i32::try_from(exponent).map_err(|_| QuantityError::Numeric)?;
        Ok(Quantity {
            mantissa,
            exponent,
            format: Format::DecimalSI,
        })
    }

    /// The format it was written in (`q.Format`), after upstream's one change: binary SI
    /// strictly between −1 and 1 becomes decimal SI.
    pub fn format(&self) -> Format {
        self.format
    }

    /// The exact value as `(mantissa, exponent)`, `mantissa × 10^exponent`, the mantissa
    /// without trailing zeros (`0` is `(0, 0)`): one pair per value, whatever the format.
    pub fn to_decimal(&self) -> (i128, i32) {
        (self.mantissa, self.exponent)
    }

    /// `IsZero`.
    pub fn is_zero(&self) -> bool {
        self.mantissa == 0
    }

    /// `Sign`: −1, 0 or 1.
    pub fn sign(&self) -> i32 {
        self.mantissa.signum() as i32
    }

    /// `ScaledValue(scale)`: `q / 10^scale` rounded up to an integer, away from zero
    /// (`ScaledValue(-3)` of `1n` is 1, of `-1.5` at scale 0 is −2). Saturates at the `i64`
    /// bounds where upstream overflows.
    ///
    /// Upstream rounds negative values away from zero for quantities held as `int64Amount`
    /// (`negativeScaleInt64`) but towards zero for those held as `inf.Dec` (binary-SI
    /// fractions, huge values); we round every value away from zero, as `Value`'s comment says.
    pub fn scaled_value(&self, scale: i32) -> i64 {
        match self.as_scaled_i128(scale) {
            Some(v) => i64::try_from(v).unwrap_or(if v < 0 { i64::MIN } else { i64::MAX }),
            None if self.mantissa < 0 => i64::MIN,
            None => i64::MAX,
        }
    }

    /// `Value`: the value rounded up to an integer, away from zero.
    pub fn value(&self) -> i64 {
        self.scaled_value(0)
    }

    /// `MilliValue`: the value in thousandths, rounded up, away from zero (`1n` → 1).
    pub fn milli_value(&self) -> i64 {
        self.scaled_value(-3)
    }

    /// `AsScaledInt64`, wider: `q / 10^scale` rounded up (away from zero) as an `i128`, or
    /// `None` if it does not fit one. For sums that must not overflow (a node's memory in
    /// milli-bytes).
    pub fn as_scaled_i128(&self, scale: i32) -> Option<i128> {
        if self.mantissa == 0 {
            return Some(0);
        }
        let shift = i64::from(self.exponent) - i64::from(scale);
        if shift >= 0 {
            let factor = 10i128.checked_pow(u32::try_from(shift).ok()?)?;
            return self.mantissa.checked_mul(factor);
        }
        let magnitude = self.mantissa.unsigned_abs();
        // |mantissa| < 10^39, so dividing by 10^39 or more leaves 0 and a remainder.
        let quotient = match u32::try_from(-shift)
            .ok()
            .and_then(|d| 10u128.checked_pow(d))
        {
            Some(divisor) => magnitude / divisor + u128::from(!magnitude.is_multiple_of(divisor)),
            None => 1,
        };
        let quotient = i128::try_from(quotient).ok()?;
        Some(if self.mantissa < 0 {
            -quotient
        } else {
            quotient
        })
    }

    /// The decimal order of magnitude: `d` such that `10^(d-1) ≤ |q| < 10^d` (0 for zero).
    fn order_of_magnitude(&self) -> i64 {
        if self.mantissa == 0 {
            return 0;
        }
        i64::from(digit_count(self.mantissa.unsigned_abs())) + i64::from(self.exponent)
    }
}

impl FromStr for Quantity {
    type Err = QuantityError;

    fn from_str(s: &str) -> Result<Quantity, QuantityError> {
        Quantity::parse(s)
    }
}

/// `Cmp`: by value, the format ignored.
impl Ord for Quantity {
    fn cmp(&self, other: &Quantity) -> Ordering {
        let by_sign = self.sign().cmp(&other.sign());
        if by_sign != Ordering::Equal || self.mantissa == 0 {
            return by_sign;
        }
        let by_magnitude = self
            .order_of_magnitude()
            .cmp(&other.order_of_magnitude())
            .then_with(|| {
                // Same order of magnitude: the one with the larger exponent has the fewer
                // digits; scaled to the other's exponent it has as many (at most 39).
                let (a, b) = (self.mantissa.unsigned_abs(), other.mantissa.unsigned_abs());
                let shift = self.exponent.abs_diff(other.exponent);
                let scale = |m: u128| 10u128.checked_pow(shift).and_then(|f| m.checked_mul(f));
                if self.exponent >= other.exponent {
                    scale(a).map_or(Ordering::Greater, |a| a.cmp(&b))
                } else {
                    scale(b).map_or(Ordering::Less, |b| a.cmp(&b))
                }
            });
        if self.mantissa < 0 {
            by_magnitude.reverse()
        } else {
            by_magnitude
        }
    }
}

impl PartialOrd for Quantity {
    fn partial_cmp(&self, other: &Quantity) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// `Equal`: the same value (normalized, so the same mantissa and exponent).
impl PartialEq for Quantity {
    fn eq(&self, other: &Quantity) -> bool {
        self.mantissa == other.mantissa && self.exponent == other.exponent
    }
}

impl Eq for Quantity {}

/// What `parseQuantityString` splits off: sign, integer digits without leading zeros,
/// fraction digits, suffix.
struct Parts<'a> {
    negative: bool,
    /// Whether the number part has a digit (leading zeros count).
    has_digit: bool,
    int: &'a [u8],
    frac: &'a [u8],
    suffix: &'a str,
}

/// `parseQuantityString`: sign, digits, `.` and digits, suffix letters, sign, digits — and
/// nothing after.
fn scan(s: &str) -> Result<Parts<'_>, QuantityError> {
    let b = s.as_bytes();
    let mut i = 0;
    let negative = match b.first() {
        Some(b'-') => {
            i = 1;
            true
        }
        Some(b'+') => {
            i = 1;
            false
        }
        _ => false,
    };
    let digits_from = |mut i: usize| {
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        i
    };
    let number_from = i;
    while b.get(i) == Some(&b'0') {
        i += 1;
    }
    let int_end = digits_from(i);
    let int = &b[i..int_end];
    i = int_end;
    let mut frac: &[u8] = &[];
    if b.get(i) == Some(&b'.') {
        let frac_end = digits_from(i + 1);
        frac = &b[i + 1..frac_end];
        i = frac_end;
    }
    let suffix_from = i;
    while b.get(i).is_some_and(|c| b"eEinumkKMGTP".contains(c)) {
        i += 1;
    }
    if matches!(b.get(i), Some(b'+' | b'-')) {
        i += 1;
    }
    if digits_from(i) != b.len() {
        return Err(QuantityError::FormatWrong);
    }
    Ok(Parts {
        negative,
        has_digit: b[number_from..suffix_from].iter().any(u8::is_ascii_digit),
        int,
        frac,
        // Everything before `suffix_from` is ASCII, so this is a character boundary.
        suffix: &s[suffix_from..],
    })
}

enum Base {
    Ten,
    Two,
}

/// `suffixer.interpret`: the suffix's base and exponent, and the format it implies.
fn interpret(suffix: &str) -> Result<(Base, i32, Format), QuantityError> {
    let decimal = |e| Ok((Base::Ten, e, Format::DecimalSI));
    let binary = |e| Ok((Base::Two, e, Format::BinarySI));
    match suffix {
        "" => decimal(0),
        "n" => decimal(-9),
        "u" => decimal(-6),
        "m" => decimal(-3),
        "k" => decimal(3),
        "M" => decimal(6),
        "G" => decimal(9),
        "T" => decimal(12),
        "P" => decimal(15),
        "E" => decimal(18),
        "Ki" => binary(10),
        "Mi" => binary(20),
        "Gi" => binary(30),
        "Ti" => binary(40),
        "Pi" => binary(50),
        "Ei" => binary(60),
        _ => {
            // `strconv.ParseInt(s[1:], 10, 64)`, then Go's `int32(…)`, which keeps the low
            // 32 bits.
            let exponent = suffix
                .strip_prefix(['e', 'E'])
                .and_then(|e| e.parse::<i64>().ok())
                .ok_or(QuantityError::Suffix)?;
            Ok((Base::Ten, exponent as i32, Format::DecimalExponent))
        }
    }
}

/// `digits × 10^(exponent − len(frac))`, rounded up to a multiple of 10⁻⁹: the magnitude and
/// its decimal exponent.
fn decimal_value(int: &[u8], frac: &[u8], exponent: i32) -> Result<(u128, i64), QuantityError> {
    let mut digits: Vec<u8> = int.iter().chain(frac).copied().collect();
    let leading_zeros = digits.iter().take_while(|d| **d == b'0').count();
    digits.drain(..leading_zeros);
    let mut exponent10 = i64::from(exponent) - frac.len() as i64;
    while digits.last() == Some(&b'0') {
        digits.pop();
        exponent10 += 1;
    }
    if digits.is_empty() {
        return Ok((0, 0));
    }
    // Below 1n: the last digit is not 0, so whatever is cut rounds up.
    let mut round_up = false;
    if exponent10 < -9 {
        let cut = usize::try_from(-9 - exponent10).unwrap_or(usize::MAX);
        digits.truncate(digits.len().saturating_sub(cut));
        exponent10 = -9;
        round_up = true;
    }
    let mut magnitude: u128 = 0;
    for d in &digits {
        magnitude = magnitude
            .checked_mul(10)
            .and_then(|m| m.checked_add(u128::from(d - b'0')))
            .ok_or(QuantityError::Numeric)?;
    }
    magnitude = magnitude
        .checked_add(u128::from(round_up))
        .ok_or(QuantityError::Numeric)?;
    Ok((magnitude, exponent10))
}

/// `digits × 2^exponent / 10^len(frac)` in nano-units, rounded up, capped at 2⁶³−1: the
/// magnitude and its decimal exponent (−9).
fn binary_value(int: &[u8], frac: &[u8], exponent: i32) -> (u128, i64) {
    // 10^19 > 2^63: any longer integer part is over the cap whatever the suffix.
    if int.len() > 19 {
        return (BINARY_CAP_NANO, -9);
    }
    let power = u32::try_from(exponent).unwrap_or(0);
    // The digits down to 1n (at most 19 + 9 of them), and the rest, a fraction of 1n.
    let nano_digits = frac.len().min(9);
    let mut whole: u128 = 0;
    for d in int.iter().chain(&frac[..nano_digits]) {
        whole = whole * 10 + u128::from(d - b'0');
    }
    whole *= 10u128.pow((9 - nano_digits) as u32);
    let rest = &frac[nano_digits..];
    let scaled = whole
        .checked_mul(1u128 << power)
        .and_then(|w| w.checked_add(fraction_times_power_of_two_rounded_up(rest, power)));
    match scaled {
        Some(n) if n <= BINARY_CAP_NANO => (n, -9),
        _ => (BINARY_CAP_NANO, -9),
    }
}

/// `⌈0.digits × 2^power⌉`, exactly, for any number of digits: the decimal fraction is doubled
/// `power` times (each doubling's carry out of the first digit is the next bit of the whole
/// part); whatever fraction is left rounds up.
fn fraction_times_power_of_two_rounded_up(digits: &[u8], power: u32) -> u128 {
    let mut fraction: Vec<u8> = digits.iter().map(|d| d - b'0').collect();
    let mut whole: u128 = 0;
    for _ in 0..power {
        while fraction.last() == Some(&0) {
            fraction.pop();
        }
        let mut carry = 0;
        for d in fraction.iter_mut().rev() {
            let doubled = *d * 2 + carry;
            *d = doubled % 10;
            carry = doubled / 10;
        }
        whole = whole * 2 + u128::from(carry);
    }
    whole + u128::from(fraction.iter().any(|d| *d != 0))
}

fn digit_count(mut n: u128) -> u32 {
    let mut count = 1;
    while n >= 10 {
        n /= 10;
        count += 1;
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binary_fractions_round_up_at_one_nano() {
        // 0.000000000001 × 1024 = 1.024e-9 → 2n.
        assert_eq!(
            Quantity::parse("0.000000000001Ki").map(|q| q.to_decimal()),
            Ok((2, -9))
        );
        assert_eq!(fraction_times_power_of_two_rounded_up(b"5", 1), 1);
        assert_eq!(fraction_times_power_of_two_rounded_up(b"5", 10), 512);
        assert_eq!(fraction_times_power_of_two_rounded_up(b"0001", 10), 1);
        assert_eq!(fraction_times_power_of_two_rounded_up(b"", 60), 0);
    }

    #[test]
    fn digit_counts() {
        assert_eq!(digit_count(0), 1);
        assert_eq!(digit_count(9), 1);
        assert_eq!(digit_count(10), 2);
        assert_eq!(digit_count(u128::MAX), 39);
    }
}
