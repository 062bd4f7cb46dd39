//! Numbers with a fraction, written without std's float printer.
//!
//! `format!("{x}")` and `format!("{x:.1}")` pull in std's float
//! formatting (Grisu with a Dragon4 fallback over big integers), 13 KB of
//! the wasm for the three places editkit prints a fraction: a similarity
//! percentage, a plan's expiry time, a float in a refusal
//! (docs/PERFORMANCE.md cut 28). These print by integer arithmetic.

/// `value` with exactly `places` decimals (at most 9), as
/// `format!("{value:.places$}")` writes it: rounded by the exact value the
/// float holds (0.15 is stored as 0.1499…, so one place gives `0.1`), an
/// exact tie to even, every digit of a large number. Not finite: `NaN`,
/// `inf`, `-inf`.
pub(crate) fn fixed(value: f64, places: u32) -> String {
    if value.is_nan() {
        return "NaN".into();
    }
    let sign = if value.is_sign_negative() { "-" } else { "" };
    if value.is_infinite() {
        return format!("{sign}inf");
    }
    let places = places.min(9);
    let unit = 10u64.pow(places);
    let x = value.abs();
    let point = if places > 0 { "." } else { "" };
    if x >= TWO_POW_53 {
        // Every float from 2^53 on is a whole number.
        let zeros = "0".repeat(places as usize);
        return format!("{sign}{}{point}{zeros}", whole_digits(x));
    }
    // Both parts are exact; the fraction scaled is below 10^9, so below
    // 2^53, where every half is a float: only when the rounded product is
    // one can its error tip the rounding.
    let mut whole = x.trunc();
    let (scaled, error) = product(x - whole, unit as f64);
    let floor = scaled.floor();
    let mut digits = if scaled - floor == 0.5 {
        // The last digit kept is the fraction's, or the whole number's.
        let last = if places == 0 { whole } else { floor };
        let up = error > 0.0 || (error == 0.0 && last % 2.0 == 1.0);
        floor + f64::from(u8::from(up))
    } else {
        scaled.round()
    } as u64;
    if digits == unit {
        whole += 1.0;
        digits = 0;
    }
    let whole = whole as u64;
    if places == 0 {
        return format!("{sign}{whole}");
    }
    format!(
        "{sign}{whole}{point}{digits:0width$}",
        width = places as usize
    )
}

const TWO_POW_53: f64 = 9_007_199_254_740_992.0;

/// The decimal digits of a whole `x` ≥ 2^53: its 53-bit mantissa doubled
/// exponent times, in base-10^9 limbs.
fn whole_digits(x: f64) -> String {
    const BASE: u64 = 1_000_000_000;
    let bits = x.to_bits();
    let mut left = ((bits >> 52) & 0x7ff) as i32 - 1075;
    let mantissa = (bits & ((1 << 52) - 1)) | (1 << 52);
    let mut limbs = vec![
        mantissa % BASE,
        mantissa / BASE % BASE,
        mantissa / BASE / BASE,
    ];
    while left > 0 {
        // 29 doublings at once: a limb below 10^9 shifted stays below 2^64.
        let step = left.min(29);
        let mut carry = 0;
        for limb in &mut limbs {
            let v = (*limb << step) + carry;
            *limb = v % BASE;
            carry = v / BASE;
        }
        while carry > 0 {
            limbs.push(carry % BASE);
            carry /= BASE;
        }
        left -= step;
    }
    while limbs.len() > 1 && limbs.last() == Some(&0) {
        limbs.pop();
    }
    let mut text = limbs.pop().unwrap_or(0).to_string();
    for limb in limbs.iter().rev() {
        text.push_str(&format!("{limb:09}"));
    }
    text
}

/// `a × b` as the rounded product and its rounding error, exactly
/// (Dekker's product, with Veltkamp's split: no fused multiply-add).
fn product(a: f64, b: f64) -> (f64, f64) {
    fn split(x: f64) -> (f64, f64) {
        let c = 134_217_729.0 * x; // 2^27 + 1
        let high = c - (c - x);
        (high, x - high)
    }
    let p = a * b;
    let (ah, al) = split(a);
    let (bh, bl) = split(b);
    (p, ((ah * bh - p) + ah * bl + al * bh) + al * bl)
}

/// `value` with up to `places` decimals, trailing zeros dropped, and no
/// point at all for a whole number when `keep_point` is false (`1.5`,
/// `3600000`), or `.0` kept when it is true (`2.0`).
pub(crate) fn shortest(value: f64, places: u32, keep_point: bool) -> String {
    let mut text = fixed(value, places);
    if text.contains('.') {
        while text.ends_with('0') {
            text.pop();
        }
        if text.ends_with('.') {
            if keep_point {
                text.push('0');
            } else {
                text.pop();
            }
        }
    }
    text
}

/// `n` in decimal digits, as `{n}` writes it, appended to `out` without
/// `format!` (a unified diff's line numbers and every JSON number go
/// through here; docs/PERFORMANCE.md cuts 37, 38).
pub(crate) fn push_digits(out: &mut String, n: u64) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    let mut rest = n;
    loop {
        at -= 1;
        digits[at] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    // ASCII digits: the check cannot fail.
    out.push_str(std::str::from_utf8(&digits[at..]).unwrap_or_default());
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::{fixed, push_digits, shortest};

    #[test]
    fn digits_are_written_as_format_writes_them() {
        for n in [0, 1, 9, 10, 99, 100, 1_000_007, u64::MAX] {
            let mut out = String::from("x");
            push_digits(&mut out, n);
            assert_eq!(out, format!("x{n}"));
        }
    }

    #[test]
    fn fixed_rounds_like_std() {
        let cases: &[(f64, u32, &str)] = &[
            (83.33333333, 1, "83.3"),
            (6.25, 1, "6.2"),
            (6.35, 1, "6.3"),
            (0.15, 1, "0.1"),
            (0.25, 1, "0.2"),
            (0.35, 1, "0.3"),
            (2.675, 2, "2.67"),
            (137_000_321.669_534_5, 6, "137000321.669535"),
            (99.96, 1, "100.0"),
            (0.0, 1, "0.0"),
            (-0.04, 1, "-0.0"),
            (100.0, 1, "100.0"),
            (2.5, 0, "2"),
            (3.5, 0, "4"),
            (1.0e20, 1, "100000000000000000000.0"),
            (9_007_199_254_740_993.0, 0, "9007199254740992"),
            (12_345_678_901.5, 6, "12345678901.500000"),
            (4_503_599_627_370_495.5, 0, "4503599627370496"),
            (4_503_599_627_370_494.5, 0, "4503599627370494"),
            (0.999_999_999_9, 3, "1.000"),
            (f64::NAN, 1, "NaN"),
            (f64::NEG_INFINITY, 2, "-inf"),
        ];
        for &(value, places, expected) in cases {
            assert_eq!(fixed(value, places), expected, "{value} to {places}");
        }
    }

    #[test]
    fn shortest_drops_trailing_zeros() {
        assert_eq!(shortest(1.5, 3, false), "1.5");
        assert_eq!(shortest(3_600_000.0, 3, false), "3600000");
        assert_eq!(shortest(1_732_612_345_678.25, 3, false), "1732612345678.25");
        assert_eq!(shortest(2.0, 6, true), "2.0");
        assert_eq!(shortest(-0.1, 6, true), "-0.1");
        assert_eq!(shortest(0.000_000_4, 6, true), "0.0");
    }

    proptest! {
        /// What std prints, for any value.
        #[test]
        fn fixed_is_std(value in -1.0e9f64..1.0e9, places in 0u32..=6) {
            prop_assert_eq!(fixed(value, places), format!("{value:.p$}", p = places as usize));
        }

        /// And for any bit pattern: huge, tiny, whole and halves.
        #[test]
        fn fixed_is_std_for_any_float(bits in any::<u64>(), places in 0u32..=9) {
            let value = f64::from_bits(bits);
            prop_assume!(value.is_finite());
            prop_assert_eq!(fixed(value, places), format!("{value:.p$}", p = places as usize));
        }

        /// Near ties: k/2^n halves and hundredths, the values a
        /// similarity percentage takes.
        #[test]
        fn ties_are_std(k in 0u32..100_000, n in 0u32..12, places in 0u32..=3) {
            let value = f64::from(k) / f64::from(1u32 << n);
            prop_assert_eq!(fixed(value, places), format!("{value:.p$}", p = places as usize));
            let percent = f64::from(k % 10_001) / 100.0;
            prop_assert_eq!(fixed(percent, places), format!("{percent:.p$}", p = places as usize));
        }

        /// Whole numbers and short fractions come out exactly as std's.
        #[test]
        fn short_values_are_exact(whole in -1_000_000_000i64..1_000_000_000, tenths in 0u32..10) {
            let value = whole as f64 + f64::from(tenths) / 10.0 * whole.signum() as f64;
            prop_assert_eq!(fixed(value, 1), format!("{value:.1}"));
        }
    }
}
