//! A small `resource.Quantity` parser for what the scheduler compares: CPU (`500m`, `2`,
//! `1.5`) and memory (`128Mi`, `1Gi`, `512K`, `1e9`), as integer milli-units, rounded up.
//! Knows nothing of pods or nodes.

/// `s` in thousandths of its unit (`"250m"` → 250, `"1Ki"` → 1_024_000), or None if it is not
/// a quantity.
pub fn parse_milli(s: &str) -> Option<i128> {
    let s = s.trim();
    let split = s
        .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '+' || c == '-'))
        .unwrap_or(s.len());
    let (num, suffix) = s.split_at(split);
    let (negative, digits) = match num.as_bytes().first() {
        Some(b'-') => (true, &num[1..]),
        Some(b'+') => (false, &num[1..]),
        _ => (false, num),
    };
    let (int_part, frac_part) = digits.split_once('.').unwrap_or((digits, ""));
    if (int_part.is_empty() && frac_part.is_empty())
        || !int_part.bytes().all(|b| b.is_ascii_digit())
        || !frac_part.bytes().all(|b| b.is_ascii_digit())
        || frac_part.len() > 18
    {
        return None;
    }
    // value = mantissa / 10^frac_len
    let mut mantissa: i128 = 0;
    for b in int_part.bytes().chain(frac_part.bytes()) {
        mantissa = mantissa
            .checked_mul(10)?
            .checked_add(i128::from(b - b'0'))?;
    }
    let mut den: i128 = 10i128.checked_pow(frac_part.len() as u32)?;
    // multiplier as num/den, applied to milli-units (×1000)
    let mut mul: i128 = 1000;
    match suffix {
        "" => {}
        "m" => den = den.checked_mul(1000)?,
        "k" | "K" => mul = mul.checked_mul(1_000)?,
        "M" => mul = mul.checked_mul(1_000_000)?,
        "G" => mul = mul.checked_mul(1_000_000_000)?,
        "T" => mul = mul.checked_mul(1_000_000_000_000)?,
        "P" => mul = mul.checked_mul(1_000_000_000_000_000)?,
        "E" => mul = mul.checked_mul(1_000_000_000_000_000_000)?,
        "Ki" => mul = mul.checked_mul(1 << 10)?,
        "Mi" => mul = mul.checked_mul(1 << 20)?,
        "Gi" => mul = mul.checked_mul(1 << 30)?,
        "Ti" => mul = mul.checked_mul(1 << 40)?,
        "Pi" => mul = mul.checked_mul(1 << 50)?,
        "Ei" => mul = mul.checked_mul(1 << 60)?,
        e => {
            let exp: i32 = e.strip_prefix(['e', 'E'])?.parse().ok()?;
            if !(-30..=30).contains(&exp) {
                return None;
            }
            if exp >= 0 {
                mul = mul.checked_mul(10i128.checked_pow(exp as u32)?)?;
            } else {
                den = den.checked_mul(10i128.checked_pow((-exp) as u32)?)?;
            }
        }
    }
    let total = mantissa.checked_mul(mul)?;
    let value = (total + den - 1) / den; // round up, as the API server does
    Some(if negative { -value } else { value })
}

#[cfg(test)]
mod tests {
    use super::parse_milli;

    #[test]
    fn cpu_and_memory_forms() {
        assert_eq!(parse_milli("250m"), Some(250));
        assert_eq!(parse_milli("2"), Some(2000));
        assert_eq!(parse_milli("1.5"), Some(1500));
        assert_eq!(parse_milli("0.1"), Some(100));
        assert_eq!(parse_milli("1Ki"), Some(1_024_000));
        assert_eq!(parse_milli("128Mi"), Some(128 * 1024 * 1024 * 1000));
        assert_eq!(parse_milli("1Gi"), Some(1024i128 * 1024 * 1024 * 1000));
        assert_eq!(parse_milli("512K"), Some(512_000_000));
        assert_eq!(parse_milli("1G"), Some(1_000_000_000_000));
        assert_eq!(parse_milli("1e3"), Some(1_000_000));
        assert_eq!(parse_milli("110"), Some(110_000));
    }

    #[test]
    fn garbage_is_none_not_a_panic() {
        for s in [
            "",
            "m",
            "abc",
            "1.2.3",
            "--1",
            "1Zi",
            "1e999",
            "99999999999999999999999999999999999999Ei",
        ] {
            assert_eq!(parse_milli(s), None, "{s}");
        }
    }
}
