//! Option deserialisers that read `""` and `0` as "unset".
//!
//! Some tool-calling providers require every schema field to be present,
//! so models fill the ones they do not mean with `""` or `0` (seed 001 §6.2).
//! These functions turn those sentinels into `None`, accept numbers written
//! as strings, and reject anything else with a message naming what was
//! expected; the option types read their fields through them
//! (`#[serde(deserialize_with = "…")]`). They rely on `deserialize_any`.
//!
//! Where `0` is a meaningful value (`knownOldTotalLines` of an empty file)
//! [`opt_count`] keeps it; only `""` and `null` are unset there.

use serde::de::{self, Deserializer, Visitor};

use crate::lang::Lang;

/// Any JSON-like scalar.
pub(super) enum Scalar {
    Null,
    Bool(bool),
    Num(f64),
    Str(String),
    Other,
}

struct ScalarVisitor;

impl<'de> Visitor<'de> for ScalarVisitor {
    type Value = Scalar;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a string, a number, a boolean or null")
    }
    fn visit_unit<E>(self) -> Result<Scalar, E> {
        Ok(Scalar::Null)
    }
    fn visit_none<E>(self) -> Result<Scalar, E> {
        Ok(Scalar::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Scalar, D::Error> {
        d.deserialize_any(ScalarVisitor)
    }
    fn visit_bool<E>(self, v: bool) -> Result<Scalar, E> {
        Ok(Scalar::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Scalar, E> {
        Ok(Scalar::Num(v as f64))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Scalar, E> {
        Ok(Scalar::Num(v as f64))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Scalar, E> {
        Ok(Scalar::Num(v))
    }
    fn visit_str<E>(self, v: &str) -> Result<Scalar, E> {
        Ok(Scalar::Str(v.to_string()))
    }
    fn visit_string<E>(self, v: String) -> Result<Scalar, E> {
        Ok(Scalar::Str(v))
    }
    fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<Scalar, A::Error> {
        while seq.next_element::<de::IgnoredAny>()?.is_some() {}
        Ok(Scalar::Other)
    }
    fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<Scalar, A::Error> {
        while map
            .next_entry::<de::IgnoredAny, de::IgnoredAny>()?
            .is_some()
        {}
        Ok(Scalar::Other)
    }
}

pub(super) fn scalar<'de, D: Deserializer<'de>>(d: D) -> Result<Scalar, D::Error> {
    d.deserialize_any(ScalarVisitor)
}

/// A non-negative integer from a number or a numeric string.
pub(super) fn integer(value: &Scalar) -> Option<u64> {
    let n = match value {
        Scalar::Num(n) => *n,
        Scalar::Str(s) => {
            let t = s.trim();
            if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            return t.parse::<u64>().ok();
        }
        _ => return None,
    };
    (n.is_finite() && n >= 0.0 && n.fract() == 0.0 && n <= 9.0e15).then_some(n as u64)
}

/// `null`, missing or `""` → `None`; any other string → `Some`.
pub(crate) fn opt_string<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    match scalar(d)? {
        Scalar::Null => Ok(None),
        Scalar::Str(s) if s.is_empty() => Ok(None),
        Scalar::Str(s) => Ok(Some(s)),
        _ => Err(de::Error::custom("expected a string")),
    }
}

/// A string where `null` means `""` (required text such as `newText`).
pub(crate) fn string<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    match scalar(d)? {
        Scalar::Null => Ok(String::new()),
        Scalar::Str(s) => Ok(s),
        _ => Err(de::Error::custom("expected a string")),
    }
}

/// A positive integer; `null`, `""` and `0` → `None`.
pub(crate) fn opt_positive<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u32>, D::Error> {
    let value = scalar(d)?;
    match &value {
        Scalar::Null => return Ok(None),
        Scalar::Str(s) if s.trim().is_empty() => return Ok(None),
        _ => {}
    }
    match integer(&value) {
        Some(0) => Ok(None),
        Some(n) => Ok(Some(u32::try_from(n).unwrap_or(u32::MAX))),
        None => Err(de::Error::custom(
            "expected a positive integer (0 or \"\" for the default)",
        )),
    }
}

/// A non-negative integer where `0` is meaningful; `null` and `""` → `None`.
pub(crate) fn opt_count<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    let value = scalar(d)?;
    match &value {
        Scalar::Null => return Ok(None),
        Scalar::Str(s) if s.trim().is_empty() => return Ok(None),
        _ => {}
    }
    integer(&value)
        .map(Some)
        .ok_or_else(|| de::Error::custom("expected a non-negative integer"))
}

/// A boolean (or `"true"`/`"false"`); `null` and `""` → `None`.
pub(crate) fn opt_bool<'de, D: Deserializer<'de>>(d: D) -> Result<Option<bool>, D::Error> {
    match scalar(d)? {
        Scalar::Null => Ok(None),
        Scalar::Bool(b) => Ok(Some(b)),
        Scalar::Str(s) => match s.trim().to_ascii_lowercase().as_str() {
            "" => Ok(None),
            "true" => Ok(Some(true)),
            "false" => Ok(Some(false)),
            _ => Err(de::Error::custom("expected a boolean")),
        },
        _ => Err(de::Error::custom("expected a boolean")),
    }
}

/// `en` | `zh` (and `zh-CN`, …); `null` and `""` → `en`.
pub(crate) fn lang<'de, D: Deserializer<'de>>(d: D) -> Result<Lang, D::Error> {
    match scalar(d)? {
        Scalar::Null => Ok(Lang::En),
        Scalar::Str(s) if s.trim().is_empty() => Ok(Lang::En),
        Scalar::Str(s) => {
            Lang::parse(&s).ok_or_else(|| de::Error::custom("expected \"en\" or \"zh\""))
        }
        _ => Err(de::Error::custom("expected \"en\" or \"zh\"")),
    }
}

/// A positive finite number of milliseconds; `null`, `""` and `0` → `None`.
pub(crate) fn opt_millis<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
    match scalar(d)? {
        Scalar::Null => Ok(None),
        Scalar::Str(s) if s.trim().is_empty() => Ok(None),
        Scalar::Num(n) if n.is_finite() && n >= 0.0 => Ok((n > 0.0).then_some(n)),
        _ => Err(de::Error::custom(
            "expected a positive number of milliseconds",
        )),
    }
}
