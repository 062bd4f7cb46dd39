//! JSON text written from any `Serialize` value, byte for byte as
//! `serde_json::to_string` writes it (compact; `null` for a float that is
//! not finite; only `"`, `\` and control characters escaped).
//!
//! Every result of the wasm binding crosses as this text. `serde_json`'s
//! writer is generic over an `io::Write` and a formatter, and every write
//! returns an `io::Result` that each field's code checks. Here the text is
//! one `String` and the only failure is a map key that is not a string
//! (docs/PERFORMANCE.md cut 38). Floats are written by `zmij`, the
//! shortest-round-trip printer `serde_json` uses.

use std::fmt;

use serde::ser::{self, Serialize};

use super::{plain_prefix, Error};
use crate::text::push_digits;

/// `value` as compact JSON text.
pub(crate) fn to_string<T: Serialize + ?Sized>(value: &T) -> Result<String, Error> {
    let mut out = Writer {
        text: String::with_capacity(128),
    };
    value.serialize(&mut out)?;
    Ok(out.text)
}

// A failure is `super::Error`, the reader's: a message (serde's
// `ser::Error` is implemented for it here).
impl ser::Error for Error {
    fn custom<T: fmt::Display>(message: T) -> Self {
        Error(message.to_string())
    }
}

fn key_must_be_a_string() -> Error {
    Error("key must be a string".into())
}

fn float_key_must_be_finite() -> Error {
    Error("float key must be finite (got NaN or +/-inf)".into())
}

/// The ten integer methods of a serializer: signed ones widened to `i128`
/// for `$signed`, unsigned ones to `u128` for `$unsigned`.
macro_rules! integers {
    (|$w:ident, $v:ident| $signed:expr, |$w2:ident, $v2:ident| $unsigned:expr) => {
        integers!(@one $w $v $signed; serialize_i8 i8, serialize_i16 i16, serialize_i32 i32,
            serialize_i64 i64, serialize_i128 i128);
        integers!(@one $w2 $v2 $unsigned; serialize_u8 u8, serialize_u16 u16,
            serialize_u32 u32, serialize_u64 u64, serialize_u128 u128);
    };
    (@one $w:ident $v:ident $body:expr; $($method:ident $ty:ty),*) => {$(
        fn $method(self, $v: $ty) -> Result<(), Error> {
            let $v = $v.into();
            let $w = self;
            $body
        }
    )*};
}

struct Writer {
    text: String,
}

impl Writer {
    fn string(&mut self, value: &str) {
        self.text.push('"');
        let bytes = value.as_bytes();
        let mut start = 0;
        let mut from = plain_prefix(bytes);
        while let Some(&b) = bytes.get(from) {
            let i = from;
            from += 1;
            let escape = match b {
                b'"' => "\\\"",
                b'\\' => "\\\\",
                b'\n' => "\\n",
                b'\r' => "\\r",
                b'\t' => "\\t",
                0x08 => "\\b",
                0x0c => "\\f",
                0..=0x1f => "",
                _ => {
                    from = i + plain_prefix(&bytes[i..]);
                    continue;
                }
            };
            // Bytes below 0x80 are whole characters: the run before them
            // ends on a character boundary.
            self.text.push_str(&value[start..i]);
            if escape.is_empty() {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                self.text.push_str("\\u00");
                self.text.push(char::from(HEX[usize::from(b >> 4)]));
                self.text.push(char::from(HEX[usize::from(b & 0xf)]));
            } else {
                self.text.push_str(escape);
            }
            start = i + 1;
        }
        self.text.push_str(&value[start..]);
        self.text.push('"');
    }

    fn unsigned(&mut self, value: u128) {
        match u64::try_from(value) {
            Ok(small) => push_digits(&mut self.text, small),
            Err(_) => {
                // Above u64: the high digits, then the low nineteen, with
                // their leading zeros (u128 division is slow in wasm, so
                // only these take it).
                const TEN_19: u128 = 10_000_000_000_000_000_000;
                self.unsigned(value / TEN_19);
                let at = self.text.len();
                push_digits(&mut self.text, (value % TEN_19) as u64);
                let zeros = 19 - (self.text.len() - at);
                self.text.insert_str(at, &"0".repeat(zeros));
            }
        }
    }

    fn signed(&mut self, value: i128) {
        if value < 0 {
            self.text.push('-');
        }
        self.unsigned(value.unsigned_abs());
    }

    /// A finite float's shortest text that reads back as the same float.
    fn float<F: zmij::Float>(&mut self, value: F) {
        self.text.push_str(zmij::Buffer::new().format_finite(value));
    }

    /// `{"variant":` before a variant's value; `}` closes it after.
    fn open_variant(&mut self, variant: &str) {
        self.text.push('{');
        self.string(variant);
        self.text.push(':');
    }
}

/// An array or object being written: whether an item came yet (the next
/// needs a comma), and what closes it.
pub(crate) struct Compound<'a> {
    writer: &'a mut Writer,
    first: bool,
    /// `]` or `}`, then `}` again for a variant's wrapper object.
    close: &'static str,
}

/// `opening` written; the array or object that `close` ends.
fn compound<'a>(writer: &'a mut Writer, opening: char, close: &'static str) -> Compound<'a> {
    writer.text.push(opening);
    Compound {
        writer,
        first: true,
        close,
    }
}

impl Compound<'_> {
    fn comma(&mut self) {
        if !self.first {
            self.writer.text.push(',');
        }
        self.first = false;
    }

    fn key(&mut self, key: &str) {
        self.comma();
        self.writer.string(key);
        self.writer.text.push(':');
    }

    fn end(self) -> Result<(), Error> {
        self.writer.text.push_str(self.close);
        Ok(())
    }
}

impl<'a> ser::Serializer for &'a mut Writer {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Compound<'a>;
    type SerializeTuple = Compound<'a>;
    type SerializeTupleStruct = Compound<'a>;
    type SerializeTupleVariant = Compound<'a>;
    type SerializeMap = Compound<'a>;
    type SerializeStruct = Compound<'a>;
    type SerializeStructVariant = Compound<'a>;

    fn serialize_bool(self, value: bool) -> Result<(), Error> {
        self.text.push_str(if value { "true" } else { "false" });
        Ok(())
    }

    integers!(
        |w, value| {
            w.signed(value);
            Ok(())
        },
        |w, value| {
            w.unsigned(value);
            Ok(())
        }
    );

    fn serialize_f32(self, value: f32) -> Result<(), Error> {
        match value.is_finite() {
            true => self.float(value),
            false => self.text.push_str("null"),
        }
        Ok(())
    }

    fn serialize_f64(self, value: f64) -> Result<(), Error> {
        match value.is_finite() {
            true => self.float(value),
            false => self.text.push_str("null"),
        }
        Ok(())
    }

    fn serialize_char(self, value: char) -> Result<(), Error> {
        self.string(value.encode_utf8(&mut [0; 4]));
        Ok(())
    }

    fn serialize_str(self, value: &str) -> Result<(), Error> {
        self.string(value);
        Ok(())
    }

    fn serialize_bytes(self, value: &[u8]) -> Result<(), Error> {
        let mut seq = self.serialize_seq(Some(value.len()))?;
        for b in value {
            ser::SerializeSeq::serialize_element(&mut seq, b)?;
        }
        seq.end()
    }

    fn serialize_none(self) -> Result<(), Error> {
        self.serialize_unit()
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), Error> {
        value.serialize(self)
    }

    fn serialize_unit(self) -> Result<(), Error> {
        self.text.push_str("null");
        Ok(())
    }

    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), Error> {
        self.serialize_unit()
    }

    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<(), Error> {
        self.string(variant);
        Ok(())
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        self.open_variant(variant);
        value.serialize(&mut *self)?;
        self.text.push('}');
        Ok(())
    }

    fn serialize_seq(self, _len: Option<usize>) -> Result<Compound<'a>, Error> {
        Ok(compound(self, '[', "]"))
    }

    fn serialize_tuple(self, len: usize) -> Result<Compound<'a>, Error> {
        self.serialize_seq(Some(len))
    }

    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        len: usize,
    ) -> Result<Compound<'a>, Error> {
        self.serialize_seq(Some(len))
    }

    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Compound<'a>, Error> {
        self.open_variant(variant);
        Ok(compound(self, '[', "]}"))
    }

    fn serialize_map(self, _len: Option<usize>) -> Result<Compound<'a>, Error> {
        Ok(compound(self, '{', "}"))
    }

    fn serialize_struct(self, _name: &'static str, len: usize) -> Result<Compound<'a>, Error> {
        self.serialize_map(Some(len))
    }

    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Compound<'a>, Error> {
        self.open_variant(variant);
        Ok(compound(self, '{', "}}"))
    }
}

impl ser::SerializeSeq for Compound<'_> {
    type Ok = ();
    type Error = Error;

    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.comma();
        value.serialize(&mut *self.writer)
    }

    fn end(self) -> Result<(), Error> {
        Compound::end(self)
    }
}

/// Tuples, tuple structs and tuple variants are written as arrays.
macro_rules! written_as_array {
    ($($trait:ident :: $method:ident),*) => {$(
        impl ser::$trait for Compound<'_> {
            type Ok = ();
            type Error = Error;

            fn $method<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
                ser::SerializeSeq::serialize_element(self, value)
            }

            fn end(self) -> Result<(), Error> {
                Compound::end(self)
            }
        }
    )*};
}

written_as_array!(
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field
);

impl ser::SerializeMap for Compound<'_> {
    type Ok = ();
    type Error = Error;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Error> {
        self.comma();
        key.serialize(KeyWriter(self.writer))?;
        self.writer.text.push(':');
        Ok(())
    }

    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        value.serialize(&mut *self.writer)
    }

    fn end(self) -> Result<(), Error> {
        Compound::end(self)
    }
}

/// Structs and struct variants are written as objects.
macro_rules! written_as_object {
    ($($trait:ident),*) => {$(
        impl ser::$trait for Compound<'_> {
            type Ok = ();
            type Error = Error;

            fn serialize_field<T: Serialize + ?Sized>(
                &mut self,
                key: &'static str,
                value: &T,
            ) -> Result<(), Error> {
                self.key(key);
                value.serialize(&mut *self.writer)
            }

            fn end(self) -> Result<(), Error> {
                Compound::end(self)
            }
        }
    )*};
}

written_as_object!(SerializeStruct, SerializeStructVariant);

/// A map key: a string as it is; a number, a `bool` or a character
/// quoted, and `Some` as its value, as `serde_json` writes them; anything
/// else refused.
struct KeyWriter<'a>(&'a mut Writer);

impl KeyWriter<'_> {
    fn quoted(self, write: impl FnOnce(&mut Writer)) -> Result<(), Error> {
        self.0.text.push('"');
        write(self.0);
        self.0.text.push('"');
        Ok(())
    }
}

impl ser::Serializer for KeyWriter<'_> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = ser::Impossible<(), Error>;
    type SerializeTuple = ser::Impossible<(), Error>;
    type SerializeTupleStruct = ser::Impossible<(), Error>;
    type SerializeTupleVariant = ser::Impossible<(), Error>;
    type SerializeMap = ser::Impossible<(), Error>;
    type SerializeStruct = ser::Impossible<(), Error>;
    type SerializeStructVariant = ser::Impossible<(), Error>;

    fn serialize_str(self, value: &str) -> Result<(), Error> {
        self.0.string(value);
        Ok(())
    }

    fn serialize_char(self, value: char) -> Result<(), Error> {
        self.0.string(value.encode_utf8(&mut [0; 4]));
        Ok(())
    }

    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<(), Error> {
        self.0.string(variant);
        Ok(())
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        value.serialize(self)
    }

    fn serialize_bool(self, value: bool) -> Result<(), Error> {
        self.quoted(|w| w.text.push_str(if value { "true" } else { "false" }))
    }

    integers!(|w, value| w.quoted(|w| w.signed(value)), |w, value| w
        .quoted(|w| w.unsigned(value)));

    fn serialize_f32(self, value: f32) -> Result<(), Error> {
        match value.is_finite() {
            true => self.quoted(|w| w.float(value)),
            false => Err(float_key_must_be_finite()),
        }
    }

    fn serialize_f64(self, value: f64) -> Result<(), Error> {
        match value.is_finite() {
            true => self.quoted(|w| w.float(value)),
            false => Err(float_key_must_be_finite()),
        }
    }

    fn serialize_bytes(self, _value: &[u8]) -> Result<(), Error> {
        Err(key_must_be_a_string())
    }

    fn serialize_none(self) -> Result<(), Error> {
        Err(key_must_be_a_string())
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), Error> {
        value.serialize(self)
    }

    fn serialize_unit(self) -> Result<(), Error> {
        Err(key_must_be_a_string())
    }

    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), Error> {
        Err(key_must_be_a_string())
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _value: &T,
    ) -> Result<(), Error> {
        Err(key_must_be_a_string())
    }

    fn serialize_seq(self, _len: Option<usize>) -> Result<Self::SerializeSeq, Error> {
        Err(key_must_be_a_string())
    }

    fn serialize_tuple(self, _len: usize) -> Result<Self::SerializeTuple, Error> {
        Err(key_must_be_a_string())
    }

    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleStruct, Error> {
        Err(key_must_be_a_string())
    }

    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleVariant, Error> {
        Err(key_must_be_a_string())
    }

    fn serialize_map(self, _len: Option<usize>) -> Result<Self::SerializeMap, Error> {
        Err(key_must_be_a_string())
    }

    fn serialize_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStruct, Error> {
        Err(key_must_be_a_string())
    }

    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStructVariant, Error> {
        Err(key_must_be_a_string())
    }
}

#[cfg(test)]
mod tests {
    //! `serde_json::to_string` is the reference: every value must come out
    //! as the same bytes.

    use std::collections::BTreeMap;

    use proptest::prelude::*;
    use serde::Serialize;

    use super::to_string;

    fn same<T: Serialize + ?Sized>(value: &T) {
        let want = serde_json::to_string(value).unwrap();
        assert_eq!(to_string(value).unwrap(), want);
    }

    #[test]
    fn strings_escape_what_serde_json_escapes() {
        let controls: String = (0u8..0x20).map(char::from).collect();
        for text in [
            "",
            "plain",
            "中文 🙂 ε",
            "\"quoted\" \\ back\\slash /slash",
            controls.as_str(),
            "\u{7f}\u{80}\u{9f}\u{2028}\u{2029}\u{feff}\u{200b}",
            "tail\n",
            "\r\n\t\u{8}\u{c}",
        ] {
            same(text);
            same(&text.chars().next());
        }
    }

    #[test]
    fn numbers_are_written_as_serde_json_writes_them() {
        for n in [0u64, 1, 9, 10, 1_000_007, u64::MAX] {
            same(&n);
        }
        for n in [0i64, -1, -10, i64::MIN, i64::MAX] {
            same(&n);
        }
        same(&u128::MAX);
        same(&i128::MIN);
        // Above u64, with zeros leading the low nineteen digits.
        same(&(5 * 10u128.pow(19) + 7));
        same(&-(5 * 10i128.pow(19) + 7));
        same(&(-128i8, 255u8, -32768i16, 65535u16, i32::MIN, u32::MAX));
        for x in [
            0.0,
            -0.0,
            0.1,
            1.0 / 3.0,
            1e21,
            1e22,
            123456789.0,
            5e-324,
            f64::MAX,
            f64::MIN_POSITIVE,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
        ] {
            same(&x);
        }
        for x in [0.1f32, 1.0 / 3.0, f32::MAX, f32::NAN] {
            same(&x);
        }
    }

    #[derive(Serialize)]
    struct Unit;

    #[derive(Serialize)]
    struct Newtype(u8);

    #[derive(Serialize)]
    struct Pair(u8, &'static str);

    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Fields {
        block_id: &'static str,
        #[serde(skip_serializing_if = "Option::is_none")]
        skipped: Option<u8>,
        kept: Option<u8>,
        #[serde(flatten)]
        more: BTreeMap<String, u8>,
        bytes: &'static [u8],
        unit: (),
        unit_struct: Unit,
        newtype: Newtype,
        pair: Pair,
    }

    #[derive(Serialize)]
    enum Shapes {
        Unit,
        Newtype(u8),
        Tuple(u8, bool),
        Struct { a: u8, b: &'static str },
    }

    #[derive(Serialize)]
    #[serde(tag = "op", rename_all = "camelCase")]
    enum Tagged {
        UpdateBlock {
            id: &'static str,
        },
        DeleteBlock {
            id: &'static str,
            markdown: Option<&'static str>,
        },
    }

    #[test]
    fn every_serde_shape_is_written_as_serde_json_writes_it() {
        same(&Fields {
            block_id: "20250101000000-abcdefg",
            skipped: None,
            kept: None,
            more: BTreeMap::from([("x".to_string(), 1), ("y\"".to_string(), 2)]),
            bytes: b"\x00\xff",
            unit: (),
            unit_struct: Unit,
            newtype: Newtype(7),
            pair: Pair(1, "two"),
        });
        same(&[
            Shapes::Unit,
            Shapes::Newtype(1),
            Shapes::Tuple(2, true),
            Shapes::Struct { a: 3, b: "c" },
        ]);
        same(&[
            Tagged::UpdateBlock { id: "a" },
            Tagged::DeleteBlock {
                id: "b",
                markdown: Some("m"),
            },
        ]);
        same(&Vec::<u8>::new());
        same(&BTreeMap::<String, u8>::new());
        same(&Some(Some(1u8)));
    }

    #[derive(Serialize, PartialEq, Eq, PartialOrd, Ord)]
    enum KeyVariant {
        First,
        Second,
    }

    /// A map with float keys (no std map holds them).
    struct FloatKeys(&'static [(f64, u8)]);

    impl Serialize for FloatKeys {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.collect_map(self.0.iter().map(|(k, v)| (k, v)))
        }
    }

    #[test]
    fn map_keys_are_strings_or_quoted_as_serde_json_quotes_them() {
        same(&BTreeMap::from([(1u32, "a"), (20, "b")]));
        same(&BTreeMap::from([(-1i64, "a")]));
        same(&BTreeMap::from([(false, 0u8), (true, 1)]));
        same(&BTreeMap::from([('k', 0u8), ('\n', 1)]));
        same(&BTreeMap::from([
            (KeyVariant::First, 0u8),
            (KeyVariant::Second, 1),
        ]));
        same(&FloatKeys(&[(0.5, 1), (-2.0, 2), (1e300, 3)]));
        same(&BTreeMap::from([(Some("k"), 0u8)]));
        let none_key = BTreeMap::from([(None::<&str>, 0u8)]);
        assert!(serde_json::to_string(&none_key).is_err());
        assert!(to_string(&none_key).is_err());
        // Keys that are not strings are refused, as serde_json refuses them.
        let refused = BTreeMap::from([((1u8, 2u8), 0u8)]);
        assert!(serde_json::to_string(&refused).is_err());
        assert_eq!(
            to_string(&refused).unwrap_err().to_string(),
            "key must be a string"
        );
    }

    /// Any JSON value, any float (`NaN` and infinities become `null`).
    fn value() -> impl Strategy<Value = serde_json::Value> {
        crate::json::arbitrary::value(any::<f64>().boxed())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1024))]

        /// Any JSON value (any float, any characters in strings and keys)
        /// is written as serde_json writes it.
        #[test]
        fn any_value_is_written_as_serde_json_writes_it(v in value()) {
            prop_assert_eq!(to_string(&v).unwrap(), serde_json::to_string(&v).unwrap());
        }

        /// Long texts with escapes anywhere (the eight-byte scan's words
        /// and their tails) are written as serde_json writes them.
        #[test]
        fn long_texts_with_escapes_are_written_as_serde_json_writes_them(
            text in "([a-z ]{0,20}[\\x00-\\x1f\"\\\\\\x7f中🙂]?){0,12}",
        ) {
            prop_assert_eq!(to_string(&text).unwrap(), serde_json::to_string(&text).unwrap());
        }
    }
}
