//! What holds for every input: parsing never panics, and a value's order is its sign and
//! magnitude.

use k8s_base::quantity::{Quantity, QuantityError};
use proptest::prelude::*;

/// Strings over the characters the scanner treats specially, and a few it refuses.
fn quantity_like() -> impl Strategy<Value = String> {
    proptest::string::string_regex(
        "[-+]?[0-9]{0,30}(\\.[0-9]{0,30})?([eEinumkKMGTP]{0,2}[-+]?[0-9]{0,12})?[ a%]?",
    )
    .expect("regex")
}

proptest! {
    #[test]
    fn parsing_never_panics(s in quantity_like()) {
        let _ = Quantity::parse(&s);
    }

    #[test]
    fn well_formed_numbers_with_a_known_suffix_parse(
        sign in "[-+]?",
        int in "[0-9]{0,19}",
        frac in "[0-9]{0,18}", // with `int`, at most 37 digits: within what we keep
        suffix in prop::sample::select(&["", "n", "u", "m", "k", "M", "G", "T", "P", "E",
            "Ki", "Mi", "Gi", "Ti", "Pi", "Ei", "e3", "E-3", "e+12", "e-20"][..]),
    ) {
        prop_assume!(!int.is_empty() || !frac.is_empty());
        let s = format!("{sign}{int}.{frac}{suffix}");
        let q = Quantity::parse(&s);
        prop_assert!(q.is_ok(), "{s}: {q:?}");
        let q = q.unwrap();
        let digits_zero = int.chars().chain(frac.chars()).all(|c| c == '0');
        prop_assert_eq!(q.is_zero(), digits_zero, "{}", s);
        if !digits_zero {
            prop_assert_eq!(q.sign(), if sign == "-" { -1 } else { 1 }, "{}", s);
        }
    }

    #[test]
    fn order_agrees_with_value_and_negation(a in quantity_like(), b in quantity_like()) {
        if let (Ok(x), Ok(y)) = (Quantity::parse(&a), Quantity::parse(&b)) {
            prop_assert_eq!(x.cmp(&y), y.cmp(&x).reverse());
            prop_assert_eq!(x == y, x.to_decimal() == y.to_decimal());
            // Rounded-up integer values never invert the order.
            if x < y {
                prop_assert!(x.scaled_value(-9) <= y.scaled_value(-9), "{a} < {b}");
            }
        }
    }

    #[test]
    fn a_k_is_never_a_suffix(n in "[0-9]{1,5}") {
        prop_assert_eq!(Quantity::parse(&format!("{n}K")), Err(QuantityError::Suffix));
    }
}
