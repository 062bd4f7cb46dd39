//! Numbers with a fraction, written without std's float printer.
//!
//! `format!("{x}")` and `format!("{x:.1}")` pull in std's float
//! formatting (Grisu with a Dragon4 fallback over big integers), 13 KB of
//! the wasm for the three places editkit prints a fraction: a similarity
//! percentage, a plan's expiry time, a float in a refusal
//! (docs/PERFORMANCE.md cut 28). These print by integer arithmetic.

/// `value` with exactly `places` decimals (at most 9), rounded as
/// `format!("{value:.places$}")` rounds: by the exact value the float
/// holds (0.15 is stored as 0.1499…, so one place gives `0.1`), an exact
/// tie to even. Not finite: `NaN`, `inf`, `-inf`. Beyond 9·10^15 after
/// scaling, see below.
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
    let (scaled, error) = product(value.abs(), unit as f64);
    if scaled >= 9.0e15 {
        // No caller prints such a number; from 2^53 on every float is a
        // whole number, which this writes exactly (`as` saturates past
        // u128, at 3.4·10^38). Between 9·10^15/10^places and 2^53 the
        // fraction is dropped.
        let zeros = "0".repeat(places as usize);
        let point = if places > 0 { "." } else { "" };
        return format!("{sign}{}{point}{zeros}", value.abs() as u128);
    }
    // `scaled + error` is the exact product. Below 2^53 every half is a
    // float, so only when `scaled` is one can the error tip the rounding.
    let floor = scaled.floor();
    let rounded = if scaled - floor == 0.5 {
        let up = error > 0.0 || (error == 0.0 && floor % 2.0 == 1.0);
        floor + f64::from(u8::from(up))
    } else {
        scaled.round()
    };
    let rounded = rounded as u64;
    let whole = rounded / unit;
    if places == 0 {
        return format!("{sign}{whole}");
    }
    let fraction = rounded % unit;
    format!("{sign}{whole}.{fraction:0width$}", width = places as usize)
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

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::{fixed, shortest};

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
        /// What std prints, for any value whose scaled magnitude is
        /// under 9·10^15.
        #[test]
        fn fixed_is_std(value in -1.0e9f64..1.0e9, places in 0u32..=6) {
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
