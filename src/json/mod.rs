//! JSON text read into a tree, and the tree read into editkit's types.
//!
//! Every value but the texts crosses the wasm boundary as JSON text that
//! the TS layer wrote with `JSON.stringify` (src/wasm/convert.rs). This
//! module parses it and hands it to the types' `Deserialize` impls. It
//! replaced `serde_json`'s parser and `Value` for reading, for size
//! (docs/PERFORMANCE.md cut 28): that parser, a B-tree map per object, and
//! serde's error wording (which prints floats, and so kept std's float
//! printer in the wasm) were 45 KB of it. Writing is in [`write`] (cut 38).
//!
//! What it accepts is what `serde_json::from_str` accepts: RFC 8259 JSON,
//! one value, whitespace around it; a lone surrogate escape (`"\udc00"`,
//! which `JSON.stringify` writes for a lone surrogate in a JS string) is an
//! error rather than text silently replaced; nesting 128 deep is an
//! error, not a stack overflow. Numbers: an integer that fits `u64`/`i64`
//! stays an integer; any other number is an `f64`, correctly rounded for
//! up to 15 significant digits and powers of ten up to 22 (every number a
//! caller writes here: counts, milliseconds), within a few units in the
//! last place beyond; `Number.MAX_VALUE` is `f64::MAX`.
//!
//! What it reads differently from `serde_json::Value`, on purpose: a
//! struct is read from an object only (not from an array of its fields in
//! order), and an enum only from a string (its unit variants).

mod write;

use std::fmt;

#[cfg_attr(not(target_arch = "wasm32"), allow(unused_imports))]
pub(crate) use write::to_string;

use serde::de::{
    self, DeserializeOwned, Deserializer, Expected, IntoDeserializer, Unexpected, Visitor,
};

/// A parsed JSON value. Objects keep their keys in order, duplicates
/// included (the types' readers see every key, as with `serde_json`'s
/// streaming reader).
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Json {
    Null,
    Bool(bool),
    /// An integer from 0 to `u64::MAX`.
    Unsigned(u64),
    /// A negative integer from `i64::MIN`.
    Signed(i64),
    /// Any other number.
    Float(f64),
    String(String),
    Array(Vec<Json>),
    Object(Vec<(String, Json)>),
}

/// Why a text could not be read: a syntax error with its byte offset, or a
/// value of the wrong shape in the words of serde's messages.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Error(String);

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

impl de::Error for Error {
    fn custom<T: fmt::Display>(message: T) -> Self {
        Error(message.to_string())
    }

    // serde's own versions print the unexpected value with its `Display`,
    // whose float arm is std's float printer (13 KB of wasm); these print
    // it with `unexpected` below and say the same thing.
    fn invalid_type(unexpected: Unexpected<'_>, expected: &dyn Expected) -> Self {
        Error(format!(
            "invalid type: {}, expected {expected}",
            describe(unexpected)
        ))
    }

    fn invalid_value(unexpected: Unexpected<'_>, expected: &dyn Expected) -> Self {
        Error(format!(
            "invalid value: {}, expected {expected}",
            describe(unexpected)
        ))
    }
}

/// A value of type `T` from JSON text.
pub(crate) fn from_str<T: DeserializeOwned>(text: &str) -> Result<T, Error> {
    T::deserialize(parse(text)?)
}

/// The JSON tree of a text.
pub(crate) fn parse(text: &str) -> Result<Json, Error> {
    let mut parser = Parser {
        text,
        bytes: text.as_bytes(),
        at: 0,
        depth: 0,
    };
    let value = parser.value()?;
    parser.skip_whitespace();
    if parser.at < parser.bytes.len() {
        return Err(parser.error("trailing characters"));
    }
    Ok(value)
}

/// Nesting this deep is refused (`serde_json`'s limit too: 127 levels
/// read): the parser recurses, and wasm's stack is small.
const MAX_DEPTH: u32 = 128;

struct Parser<'a> {
    text: &'a str,
    bytes: &'a [u8],
    at: usize,
    depth: u32,
}

impl Parser<'_> {
    fn error(&self, what: &str) -> Error {
        Error(format!("{what} at byte {}", self.at))
    }

    fn skip_whitespace(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.bytes.get(self.at) {
            self.at += 1;
        }
    }

    fn value(&mut self) -> Result<Json, Error> {
        self.skip_whitespace();
        let Some(&byte) = self.bytes.get(self.at) else {
            return Err(self.error("EOF while parsing a value"));
        };
        match byte {
            b'n' => self.literal("null", Json::Null),
            b't' => self.literal("true", Json::Bool(true)),
            b'f' => self.literal("false", Json::Bool(false)),
            b'"' => Ok(Json::String(self.string()?)),
            b'-' | b'0'..=b'9' => self.number(),
            b'[' | b'{' => {
                if self.depth + 1 == MAX_DEPTH {
                    return Err(self.error("recursion limit exceeded"));
                }
                self.depth += 1;
                self.at += 1;
                let value = if byte == b'[' {
                    self.array()
                } else {
                    self.object()
                };
                self.depth -= 1;
                value
            }
            _ => Err(self.error("expected value")),
        }
    }

    fn literal(&mut self, word: &str, value: Json) -> Result<Json, Error> {
        if self.bytes[self.at..].starts_with(word.as_bytes()) {
            self.at += word.len();
            Ok(value)
        } else {
            Err(self.error("expected value"))
        }
    }

    /// After `[`.
    fn array(&mut self) -> Result<Json, Error> {
        let mut items = Vec::new();
        if !self.closes_at_once(b']') {
            loop {
                items.push(self.value()?);
                if !self.another_item(b']', "expected `,` or `]`")? {
                    break;
                }
            }
        }
        Ok(Json::Array(items))
    }

    /// After `{`.
    fn object(&mut self) -> Result<Json, Error> {
        let mut entries = Vec::new();
        if !self.closes_at_once(b'}') {
            loop {
                self.skip_whitespace();
                if self.bytes.get(self.at) != Some(&b'"') {
                    return Err(self.error("key must be a string"));
                }
                let key = self.string()?;
                self.skip_whitespace();
                if self.bytes.get(self.at) != Some(&b':') {
                    return Err(self.error("expected `:`"));
                }
                self.at += 1;
                entries.push((key, self.value()?));
                if !self.another_item(b'}', "expected `,` or `}`")? {
                    break;
                }
            }
        }
        Ok(Json::Object(entries))
    }

    /// Right after an opening bracket: whether `close` follows at once
    /// (an empty array or object), consumed if so.
    fn closes_at_once(&mut self, close: u8) -> bool {
        self.skip_whitespace();
        let closes = self.bytes.get(self.at) == Some(&close);
        if closes {
            self.at += 1;
        }
        closes
    }

    /// After an item of an array or object: `,` (another item follows) or
    /// `close` (the last one), consumed; anything else is the error
    /// `expected`.
    fn another_item(&mut self, close: u8, expected: &str) -> Result<bool, Error> {
        self.skip_whitespace();
        match self.bytes.get(self.at) {
            Some(b',') => {
                self.at += 1;
                Ok(true)
            }
            Some(&b) if b == close => {
                self.at += 1;
                Ok(false)
            }
            _ => Err(self.error(expected)),
        }
    }

    /// At the opening `"`.
    fn string(&mut self) -> Result<String, Error> {
        self.at += 1;
        let mut out = String::new();
        loop {
            // Copy the run up to the next quote, backslash or control
            // character at once.
            let start = self.at;
            self.at += plain_prefix(&self.bytes[self.at..]);
            // Both ends are at ASCII bytes, so on character boundaries.
            out.push_str(&self.text[start..self.at]);
            match self.bytes.get(self.at) {
                None => return Err(self.error("EOF while parsing a string")),
                Some(b'"') => {
                    self.at += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.at += 1;
                    self.escape(&mut out)?;
                }
                Some(_) => {
                    return Err(self
                        .error("control character (\\u0000-\\u001F) found while parsing a string"))
                }
            }
        }
    }

    /// After a backslash.
    fn escape(&mut self, out: &mut String) -> Result<(), Error> {
        let Some(&kind) = self.bytes.get(self.at) else {
            return Err(self.error("EOF while parsing a string"));
        };
        self.at += 1;
        let c = match kind {
            b'u' => {
                let unit = self.hex4()?;
                let code = match unit {
                    0xD800..=0xDBFF => {
                        if !self.bytes[self.at..].starts_with(b"\\u") {
                            return Err(self.error("lone leading surrogate in hex escape"));
                        }
                        self.at += 2;
                        let low = self.hex4()?;
                        if !(0xDC00..=0xDFFF).contains(&low) {
                            return Err(self.error("lone leading surrogate in hex escape"));
                        }
                        0x10000 + ((u32::from(unit) - 0xD800) << 10) + (u32::from(low) - 0xDC00)
                    }
                    0xDC00..=0xDFFF => {
                        return Err(self.error("lone trailing surrogate in hex escape"))
                    }
                    _ => u32::from(unit),
                };
                // Every value left is a scalar value.
                char::from_u32(code).unwrap_or(char::REPLACEMENT_CHARACTER)
            }
            other => match simple_escape(other) {
                Some(c) => c,
                None => return Err(self.error("invalid escape")),
            },
        };
        out.push(c);
        Ok(())
    }

    fn hex4(&mut self) -> Result<u16, Error> {
        let mut unit = 0u16;
        for _ in 0..4 {
            let digit = match self.bytes.get(self.at) {
                Some(&b) => (b as char).to_digit(16),
                None => return Err(self.error("EOF while parsing a string")),
            };
            let Some(digit) = digit else {
                return Err(self.error("invalid escape"));
            };
            unit = unit * 16 + digit as u16;
            self.at += 1;
        }
        Ok(unit)
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`
    fn number(&mut self) -> Result<Json, Error> {
        let negative = self.bytes[self.at] == b'-';
        if negative {
            self.at += 1;
        }
        // The digits while they fit a u64, and the power of ten the ones
        // dropped and the fraction stand for.
        let mut mantissa = 0u64;
        let mut exponent = 0i64;
        let mut integral = true;
        let mut overflowed = false;
        let leading = self.at;
        while let Some(&b @ b'0'..=b'9') = self.bytes.get(self.at) {
            self.at += 1;
            match push_digit(mantissa, b) {
                Some(m) => mantissa = m,
                None => {
                    exponent += 1;
                    overflowed = true;
                }
            }
        }
        let int_len = self.at - leading;
        if int_len == 0 || (int_len > 1 && self.bytes[leading] == b'0') {
            return Err(self.error("invalid number"));
        }
        if self.bytes.get(self.at) == Some(&b'.') {
            integral = false;
            self.at += 1;
            let start = self.at;
            while let Some(&b @ b'0'..=b'9') = self.bytes.get(self.at) {
                self.at += 1;
                if let Some(m) = push_digit(mantissa, b) {
                    mantissa = m;
                    exponent -= 1;
                }
            }
            if self.at == start {
                return Err(self.error("invalid number"));
            }
        }
        if let Some(b'e' | b'E') = self.bytes.get(self.at) {
            integral = false;
            self.at += 1;
            let minus = match self.bytes.get(self.at) {
                Some(b'-') => {
                    self.at += 1;
                    true
                }
                Some(b'+') => {
                    self.at += 1;
                    false
                }
                _ => false,
            };
            let start = self.at;
            let mut power = 0i64;
            while let Some(&b @ b'0'..=b'9') = self.bytes.get(self.at) {
                self.at += 1;
                power = (power * 10 + i64::from(b - b'0')).min(1 << 40);
            }
            if self.at == start {
                return Err(self.error("invalid number"));
            }
            exponent += if minus { -power } else { power };
        }
        if integral && !overflowed {
            if !negative {
                return Ok(Json::Unsigned(mantissa));
            }
            if mantissa <= i64::MAX as u64 + 1 && mantissa != 0 {
                return Ok(Json::Signed((mantissa as i64).wrapping_neg()));
            }
        }
        let value = to_float(mantissa, exponent);
        if value.is_infinite() {
            return Err(self.error("number out of range"));
        }
        Ok(Json::Float(if negative { -value } else { value }))
    }
}

/// The character a one-letter JSON escape stands for (`\\n` → line feed);
/// `\\u` is not one. Shared with the corrector's lenient reader.
pub(crate) fn simple_escape(kind: u8) -> Option<char> {
    Some(match kind {
        b'"' => '"',
        b'\\' => '\\',
        b'/' => '/',
        b'b' => '\u{8}',
        b'f' => '\u{c}',
        b'n' => '\n',
        b'r' => '\r',
        b't' => '\t',
        _ => return None,
    })
}

/// `mantissa` with the decimal digit `b` appended, if that fits.
fn push_digit(mantissa: u64, b: u8) -> Option<u64> {
    mantissa.checked_mul(10)?.checked_add(u64::from(b - b'0'))
}

/// `mantissa × 10^exponent`: exact (one rounding) when the mantissa fits
/// 53 bits and the power of ten is exact in an `f64` (up to 22), else
/// within a few units in the last place.
fn to_float(mantissa: u64, exponent: i64) -> f64 {
    if mantissa == 0 {
        return 0.0;
    }
    let m = mantissa as f64;
    if mantissa < 1 << 53 && exponent.unsigned_abs() <= 22 {
        let power = 10f64.powi(exponent.unsigned_abs() as i32);
        return if exponent < 0 { m / power } else { m * power };
    }
    let clamped = exponent.clamp(-400, 400) as i32;
    // Two steps, so that 10^exponent never over- or underflows on its own
    // when the product is in range.
    let half = clamped / 2;
    let value = m * 10f64.powi(half) * 10f64.powi(clamped - half);
    if value.is_infinite() && at_most_max(mantissa, exponent) {
        // The few units of error above pushed `Number.MAX_VALUE`
        // (1.7976931348623157e308, what `JSON.stringify` writes for it)
        // past the largest float.
        return f64::MAX;
    }
    value
}

/// Whether `mantissa × 10^exponent` rounds to at most `f64::MAX`
/// (1.797693134862315708…e308), judged on its leading 17 digits as
/// `serde_json` judges it: …157e308 is, …158e308 is out of range.
fn at_most_max(mantissa: u64, exponent: i64) -> bool {
    let digits = mantissa.checked_ilog10().map_or(0, |d| d as i64 + 1);
    if digits + exponent - 1 != 308 {
        return digits + exponent - 1 < 308;
    }
    // The leading 17 digits against f64::MAX's.
    let mut leading = mantissa;
    let mut n = digits;
    while n > 17 {
        leading /= 10;
        n -= 1;
    }
    while n < 17 {
        leading *= 10;
        n += 1;
    }
    leading <= 17_976_931_348_623_157
}

/// `text` in double quotes with its quotes, backslashes, controls and
/// the invisible or combining characters a host's text commonly carries
/// escaped, as `{:?}` escapes them; the rarer ones `{:?}` also escapes
/// (private use, unassigned code points, other combining marks) are
/// written as they are. Not `{:?}`
/// itself: this was the package's one use of `str`'s `Debug`, which brings
/// in the Unicode "printable" tables (3.8 KB; docs/PERFORMANCE.md cut 35).
fn quoted(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\0' => out.push_str("\\0"),
            // What is invisible or combines with the character before it:
            // controls, spaces other than ' ' (the no-break and ideographic
            // spaces too), the soft hyphen, zero-width characters, bidi
            // marks and isolates, line and paragraph separators, combining
            // diacritics, variation selectors, the BOM.
            '\u{1}'..='\u{1f}'
            | '\u{7f}'..='\u{a0}'
            | '\u{ad}'
            | '\u{300}'..='\u{36f}'
            | '\u{2000}'..='\u{200f}'
            | '\u{2028}'..='\u{202f}'
            | '\u{205f}'..='\u{206f}'
            | '\u{3000}'
            | '\u{fe00}'..='\u{fe0f}'
            | '\u{feff}' => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// An unexpected value in the words of `serde_json`'s messages.
fn describe(unexpected: Unexpected<'_>) -> String {
    match unexpected {
        Unexpected::Bool(b) => format!("boolean `{b}`"),
        Unexpected::Unsigned(n) => format!("integer `{n}`"),
        Unexpected::Signed(n) => format!("integer `{n}`"),
        Unexpected::Float(x) => format!("floating point `{}`", float_text(x)),
        Unexpected::Char(c) => format!("character `{c}`"),
        Unexpected::Str(s) => format!("string {}", quoted(s)),
        Unexpected::Bytes(_) => "byte array".into(),
        Unexpected::Unit => "null".into(),
        Unexpected::Option => "Option value".into(),
        Unexpected::NewtypeStruct => "newtype struct".into(),
        Unexpected::Seq => "sequence".into(),
        Unexpected::Map => "map".into(),
        Unexpected::Enum => "enum".into(),
        Unexpected::UnitVariant => "unit variant".into(),
        Unexpected::NewtypeVariant => "newtype variant".into(),
        Unexpected::TupleVariant => "tuple variant".into(),
        Unexpected::StructVariant => "struct variant".into(),
        Unexpected::Other(other) => other.into(),
    }
}

/// A float for a message, as `serde_json` prints it (`2.0`, `1.5`) but with
/// at most six decimals, trailing zeros dropped, and every digit of a
/// large one (`100000000000000000000.0` where it writes `1e+20`): std's
/// float printer is not in the wasm, see `text::decimal`.
fn float_text(x: f64) -> String {
    crate::text::shortest(x, 6, true)
}

impl Json {
    fn unexpected(&self) -> Unexpected<'_> {
        match self {
            Json::Null => Unexpected::Unit,
            Json::Bool(b) => Unexpected::Bool(*b),
            Json::Unsigned(n) => Unexpected::Unsigned(*n),
            Json::Signed(n) => Unexpected::Signed(*n),
            Json::Float(x) => Unexpected::Float(*x),
            Json::String(s) => Unexpected::Str(s),
            Json::Array(_) => Unexpected::Seq,
            Json::Object(_) => Unexpected::Map,
        }
    }

    fn invalid_type(&self, expected: &dyn Expected) -> Error {
        de::Error::invalid_type(self.unexpected(), expected)
    }
}

// Each shape a type asks for calls only the visitor method that shape
// needs: a struct's reader is never instantiated for sequences, nor a
// string's for numbers, which keeps the derived readers small.
impl<'de> Deserializer<'de> for Json {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self {
            Json::Null => visitor.visit_unit(),
            Json::Bool(b) => visitor.visit_bool(b),
            Json::Unsigned(n) => visitor.visit_u64(n),
            Json::Signed(n) => visitor.visit_i64(n),
            Json::Float(x) => visitor.visit_f64(x),
            Json::String(s) => visitor.visit_string(s),
            Json::Array(items) => visit_array(items, visitor),
            Json::Object(entries) => visitor.visit_map(Entries::new(entries)),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self {
            Json::Null => visitor.visit_none(),
            value => visitor.visit_some(value),
        }
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self {
            Json::Bool(b) => visitor.visit_bool(b),
            other => Err(other.invalid_type(&visitor)),
        }
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_string(visitor)
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self {
            Json::String(s) => visitor.visit_string(s),
            other => Err(other.invalid_type(&visitor)),
        }
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_string(visitor)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self {
            Json::Array(items) => visit_array(items, visitor),
            other => Err(other.invalid_type(&visitor)),
        }
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self {
            Json::Object(entries) => visitor.visit_map(Entries::new(entries)),
            other => Err(other.invalid_type(&visitor)),
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_map(visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self {
            Json::String(s) => visitor.visit_enum(s.into_deserializer()),
            other => Err(other.invalid_type(&visitor)),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_unit()
    }

    serde::forward_to_deserialize_any! {
        i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char bytes byte_buf
        unit unit_struct tuple tuple_struct
    }
}

fn visit_array<'de, V: Visitor<'de>>(items: Vec<Json>, visitor: V) -> Result<V::Value, Error> {
    let len = items.len();
    let mut items = Items(items.into_iter());
    let value = visitor.visit_seq(&mut items)?;
    if items.0.len() > 0 {
        return Err(de::Error::invalid_length(len, &"fewer elements in array"));
    }
    Ok(value)
}

struct Items(std::vec::IntoIter<Json>);

impl<'de> de::SeqAccess<'de> for Items {
    type Error = Error;

    fn next_element_seed<T: de::DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Error> {
        self.0.next().map(|item| seed.deserialize(item)).transpose()
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.0.len())
    }
}

struct Entries {
    entries: std::vec::IntoIter<(String, Json)>,
    value: Option<Json>,
}

impl Entries {
    fn new(entries: Vec<(String, Json)>) -> Self {
        Entries {
            entries: entries.into_iter(),
            value: None,
        }
    }
}

impl<'de> de::MapAccess<'de> for Entries {
    type Error = Error;

    fn next_key_seed<K: de::DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        let Some((key, value)) = self.entries.next() else {
            return Ok(None);
        };
        self.value = Some(value);
        seed.deserialize(Json::String(key)).map(Some)
    }

    fn next_value_seed<V: de::DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        // serde asks for a value only after its key.
        seed.deserialize(self.value.take().unwrap_or(Json::Null))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.entries.len())
    }
}

/// How many leading bytes of `bytes` are plain string content in JSON
/// text (none is `"`, `\` or below 0x20), eight at a time: the run the
/// reader copies and the writer leaves unescaped in one piece (a host's
/// 1,000 rows and a 790 KB report went through a byte at a time;
/// docs/PERFORMANCE.md cuts 38, 39).
fn plain_prefix(bytes: &[u8]) -> usize {
    use crate::text::swar::{bytes_equal, control_bytes};
    let mut at = 0;
    while let Some(chunk) = bytes.get(at..at + 8) {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let x = u64::from_le_bytes(word);
        if control_bytes(x) | bytes_equal(x, b'"') | bytes_equal(x, b'\\') != 0 {
            break;
        }
        at += 8;
    }
    while let Some(&b) = bytes.get(at) {
        if b < 0x20 || b == b'"' || b == b'\\' {
            break;
        }
        at += 1;
    }
    at
}

/// Arbitrary JSON values for the reader's and the writer's property tests.
#[cfg(test)]
mod arbitrary {
    use proptest::prelude::*;
    use serde_json::Value;

    /// Any JSON value (nested four deep), its floats from `float`, its
    /// strings of any characters.
    pub(super) fn value(float: BoxedStrategy<f64>) -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<u64>().prop_map(Value::from),
            any::<i64>().prop_map(Value::from),
            float.prop_map(Value::from),
            "\\PC{0,12}".prop_map(Value::String),
            prop::collection::vec(any::<char>(), 0..8)
                .prop_map(|cs| Value::String(cs.into_iter().collect())),
        ];
        leaf.prop_recursive(4, 48, 6, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
                prop::collection::vec((any::<String>(), inner), 0..6)
                    .prop_map(|entries| Value::Object(entries.into_iter().collect())),
            ]
        })
    }
}

#[cfg(test)]
mod tests {
    //! `serde_json` (a dev-dependency) is the reference: the same texts
    //! must give the same values, the same refusals, and for a value of the
    //! wrong shape the same message as reading through its `Value` gave.

    use proptest::prelude::*;
    use serde::de::DeserializeOwned;

    use super::{from_str, parse, quoted, Json};
    use crate::{
        ApplyOptions, Block, EditSpec, FileEditSessionOptions, GetBlockInfoArgs, InsertOptions,
        MatchOptions,
    };

    /// Our tree as `serde_json`'s, to compare.
    fn as_value(json: Json) -> serde_json::Value {
        use serde_json::Value;
        match json {
            Json::Null => Value::Null,
            Json::Bool(b) => Value::Bool(b),
            Json::Unsigned(n) => Value::from(n),
            Json::Signed(n) => Value::from(n),
            Json::Float(x) => serde_json::Number::from_f64(x).map_or(Value::Null, Value::Number),
            Json::String(s) => Value::String(s),
            Json::Array(items) => Value::Array(items.into_iter().map(as_value).collect()),
            Json::Object(entries) => {
                Value::Object(entries.into_iter().map(|(k, v)| (k, as_value(v))).collect())
            }
        }
    }

    /// Quoted text reads as `{:?}` writes it for the characters `quoted`
    /// covers: plain, CJK, emoji, quotes, backslashes, controls, and the
    /// invisible and combining characters it escapes.
    #[test]
    fn quoted_text_reads_as_debug_writes_it() {
        for text in [
            "",
            "x",
            "plain words",
            "中文 🙂 text",
            "say \"hi\"",
            "C:\\dir",
            "a\nb\r\nc\td\0e",
            "\u{1}\u{1f}\u{7f}\u{85}\u{9f}",
            "\u{feff}bom",
            "zero\u{200b}width\u{200d}joiner\u{200f}",
            "\u{2028}\u{2029}\u{202a}\u{202e}\u{202f}",
            "\u{a0}nbsp\u{ad}soft\u{3000}全角空格\u{2060}\u{2066}\u{2069}",
            "e\u{301} decomposed, \u{2764}\u{fe0f} with a selector",
            "\u{2000}\u{200a}\u{205f}",
            "' single ' quotes",
        ] {
            assert_eq!(quoted(text), format!("{text:?}"));
        }
    }

    #[test]
    fn texts_parse_as_serde_json_parses_them() {
        // The table: JSON texts (valid and not) as JSON strings.
        let table = include_str!("../../tests/data/json-texts.json");
        let mut texts: Vec<String> = serde_json::from_str(table).unwrap();
        texts.push(format!("{}{}", "[".repeat(127), "]".repeat(127)));
        texts.push(format!("{}{}", "[".repeat(128), "]".repeat(128)));
        for text in &texts {
            let ours = parse(text);
            let theirs = serde_json::from_str::<serde_json::Value>(text);
            match (ours, theirs) {
                (Ok(a), Ok(b)) => assert!(close(&as_value(a), &b), "{text:?}"),
                (Err(_), Err(_)) => {}
                (a, b) => panic!("{text:?}: ours {a:?}, serde_json {b:?}"),
            }
        }
    }

    #[test]
    fn numbers_keep_their_kind_and_value() {
        let cases: &[(&str, Json)] = &[
            ("0", Json::Unsigned(0)),
            ("18446744073709551615", Json::Unsigned(u64::MAX)),
            ("-9223372036854775808", Json::Signed(i64::MIN)),
            ("-1", Json::Signed(-1)),
            ("-0", Json::Float(-0.0)),
            ("1.0", Json::Float(1.0)),
            ("3600000", Json::Unsigned(3_600_000)),
            ("0.85", Json::Float(0.85)),
            ("1e22", Json::Float(1e22)),
            ("123456789012345e-15", Json::Float(0.123456789012345)),
            ("18446744073709551616", Json::Float(18446744073709551616.0)),
            ("1.7976931348623157e308", Json::Float(f64::MAX)),
            ("-1.7976931348623157e308", Json::Float(f64::MIN)),
            ("5e-324", Json::Float(5e-324)),
        ];
        for (text, expected) in cases {
            assert_eq!(&parse(text).unwrap(), expected, "{text}");
        }
    }

    /// Any JSON value whose floats have up to 15 significant digits
    /// (these come back exactly).
    fn value() -> impl Strategy<Value = serde_json::Value> {
        let exact = (-(10i64.pow(15))..10i64.pow(15), 0u32..=15)
            .prop_map(|(m, k)| m as f64 / 10f64.powi(k as i32));
        super::arbitrary::value(exact.boxed())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        /// Long texts with escapes anywhere (the eight-byte scan's words
        /// and their tails) read back as written; with a raw control
        /// character inside, they are refused as serde_json refuses them.
        #[test]
        fn long_texts_with_escapes_read_back(
            text in "([a-z ]{0,20}[\\x00-\\x1f\"\\\\\\x7f中🙂]?){0,12}",
            raw in "[a-z ]{0,20}[\\x00-\\x1f]",
        ) {
            let written = serde_json::to_string(&text).unwrap();
            prop_assert_eq!(parse(&written).unwrap(), Json::String(text));
            let broken = format!("\"{raw}\"");
            prop_assert!(serde_json::from_str::<serde_json::Value>(&broken).is_err());
            prop_assert!(parse(&broken).is_err());
        }

        /// What `serde_json` writes (compact or pretty), we read back.
        #[test]
        fn written_values_read_back(v in value(), pretty in any::<bool>()) {
            let text = if pretty {
                serde_json::to_string_pretty(&v).unwrap()
            } else {
                serde_json::to_string(&v).unwrap()
            };
            prop_assert_eq!(as_value(parse(&text).unwrap()), v);
        }

        /// A written value with one character deleted, replaced or
        /// inserted (from JSON's own punctuation, digits, escapes and
        /// whitespace, or any character) is read as `serde_json` reads it:
        /// the same refusal or the same value.
        #[test]
        fn damaged_texts_read_as_serde_json_reads_them(
            v in value(),
            at in any::<prop::sample::Index>(),
            edit in 0u8..3,
            c in prop_oneof![
                prop::sample::select(&['"', '\\', '{', '}', '[', ']', ',', ':', '0', '1', '-',
                    '.', 'e', 'E', '+', 'u', 'n', 't', 'f', ' ', '\n', '\u{1f}']),
                any::<char>(),
            ],
        ) {
            let text = serde_json::to_string(&v).unwrap();
            let mut chars: Vec<char> = text.chars().collect();
            let i = at.index(chars.len() + 1);
            match edit {
                0 if i < chars.len() => { chars.remove(i); }
                1 if i < chars.len() => chars[i] = c,
                _ => chars.insert(i, c),
            }
            let text: String = chars.into_iter().collect();
            let ours = parse(&text).map(as_value);
            let theirs = serde_json::from_str::<serde_json::Value>(&text);
            match (ours, theirs) {
                (Ok(a), Ok(b)) => prop_assert!(close(&a, &b), "{:?}: {:?} vs {:?}", text, a, b),
                (Err(_), Err(_)) => {}
                (a, b) => prop_assert!(false, "{:?}: ours {:?}, serde_json {:?}", text, a, b),
            }
        }
    }

    /// Equal values, floats within a few units in the last place (numbers
    /// of more than 15 digits, see the module docs).
    fn close(a: &serde_json::Value, b: &serde_json::Value) -> bool {
        use serde_json::Value;
        match (a, b) {
            (Value::Number(x), Value::Number(y)) if x.is_f64() || y.is_f64() => {
                let (x, y) = (
                    x.as_f64().unwrap_or(f64::NAN),
                    y.as_f64().unwrap_or(f64::NAN),
                );
                x == y || (x - y).abs() <= 4.0 * f64::EPSILON * x.abs().max(y.abs())
            }
            (Value::Array(x), Value::Array(y)) => {
                x.len() == y.len() && x.iter().zip(y).all(|(x, y)| close(x, y))
            }
            (Value::Object(x), Value::Object(y)) => {
                x.len() == y.len()
                    && x.iter()
                        .zip(y)
                        .all(|((k, x), (l, y))| k == l && close(x, y))
            }
            _ => a == b,
        }
    }

    /// The old path: the text into `serde_json::Value`, then the type.
    fn through_value<T: DeserializeOwned>(text: &str) -> Result<T, String> {
        serde_json::from_str::<serde_json::Value>(text)
            .and_then(T::deserialize)
            .map_err(|e| e.to_string())
    }

    fn same<T: DeserializeOwned + std::fmt::Debug>(texts: &[&str]) {
        for text in texts {
            let ours = from_str::<T>(text).map_err(|e| e.to_string());
            let theirs = through_value::<T>(text);
            assert_eq!(format!("{ours:?}"), format!("{theirs:?}"), "{text}");
        }
    }

    #[test]
    fn argument_types_read_as_before() {
        same::<MatchOptions>(&[
            "{}",
            r#"{"mode":"fuzzy","replaceAll":true,"fuzzyThreshold":0.85,"lineHint":12,"lang":"zh"}"#,
            r#"{"mode":"guess"}"#,
            r#"{"lineHint":1.5}"#,
            r#"{"lineHint":-2.25}"#,
            r#"{"lineHint":-3}"#,
            r#"{"lineHint":"12"}"#,
            r#"{"replaceAll":null}"#,
            r#"{"expectedReplacements":null,"unknownKey":[1,{"x":2}]}"#,
            r#"{"fuzzyThreshold":"high"}"#,
            "\"safe\"",
            "null",
        ]);
        same::<EditSpec>(&[
            r#"{"oldString":"a","newString":"b"}"#,
            r#"{"oldString":"a"}"#,
            r#"{"oldString":"a","newString":"b","new_string":"c"}"#,
            r#"{"oldString":7,"newString":"b"}"#,
        ]);
        same::<ApplyOptions>(&[
            "{}",
            r#"{"dryRun":true,"atomic":false,"matchMode":"fuzzy","idStamp":"s1"}"#,
            r#"{"dryRun":"yes"}"#,
        ]);
        same::<GetBlockInfoArgs>(&[r#"{"ids":"a,b"}"#, r#"{"ids":["a","b,c"]}"#, "{}"]);
        same::<FileEditSessionOptions>(&[
            r#"{"ttlMs":1500,"idPrefix":"ab"}"#,
            r#"{"ttlMs":0,"idPrefix":null}"#,
            r#"{"ttlMs":"","idPrefix":""}"#,
            r#"{"ttlMs":-5}"#,
            r#"{"ttlMs":true}"#,
        ]);
        same::<InsertOptions>(&[
            r#"{"path":"a.md","anchor":"x","match":"regex","occurrence":"last","newText":"y"}"#,
            r#"{"occurrence":2,"match":"","existingHunkId":""}"#,
            r#"{"occurrence":1.5}"#,
            r#"{"match":"fuzzy"}"#,
        ]);
        same::<Vec<Block>>(&[
            r#"[{"id":"20240101090000-abcdefg","type":"p","markdown":"中文 😀","length":3,"sort":10,"extra":{"a":[]}}]"#,
            r#"[{"id":7}]"#,
            r#"[null]"#,
            "[]",
        ]);
    }

    #[test]
    fn the_first_wrong_key_in_the_text_is_the_one_reported() {
        // `Value`'s map is sorted, so it reported the alphabetically first.
        let text = r#"{"oldText":"a","newText":"b"}"#;
        assert_eq!(
            from_str::<EditSpec>(text).unwrap_err().to_string(),
            "unknown field `oldText`, expected one of `oldString`, `newString`, `replaceAll`"
        );
        assert!(through_value::<EditSpec>(text)
            .unwrap_err()
            .contains("`newText`"));
    }

    #[test]
    fn a_struct_is_read_from_an_object_only() {
        // serde_json's `Value` also read a derived struct from an array of
        // its fields in order, `[]` as all defaults; no caller writes that.
        #[derive(Debug, Default, serde::Deserialize)]
        #[serde(default)]
        struct Derived {
            #[allow(dead_code)]
            a: u32,
        }
        assert_eq!(
            from_str::<Derived>("[]").unwrap_err().to_string(),
            "invalid type: sequence, expected struct Derived"
        );
        assert!(through_value::<Derived>("[]").is_ok());
        assert_eq!(
            from_str::<MatchOptions>("[]").unwrap_err().to_string(),
            "invalid type: sequence, expected struct MatchOptions"
        );
    }

    #[test]
    fn a_block_id_list_is_a_string_or_a_list_of_strings() {
        let read = |text: &str| from_str::<GetBlockInfoArgs>(text).map(|a| a.ids.to_vec());
        assert_eq!(read(r#"{"ids":" a, b ,a"}"#).unwrap(), ["a", "b"]);
        assert_eq!(read(r#"{"ids":["a","b,c"]}"#).unwrap(), ["a", "b", "c"]);
        assert_eq!(
            read(r#"{"ids":7}"#).unwrap_err().to_string(),
            "invalid type: integer `7`, expected comma-separated block ids or a list of block ids"
        );
        assert_eq!(
            read(r#"{"ids":[7]}"#).unwrap_err().to_string(),
            "invalid type: integer `7`, expected a string"
        );
    }

    #[test]
    fn floats_in_messages_print_without_the_float_printer() {
        let message = |text: &str| from_str::<MatchOptions>(text).unwrap_err().to_string();
        assert_eq!(
            message(r#"{"lineHint":1.5}"#),
            "invalid type: floating point `1.5`, expected u32"
        );
        assert_eq!(
            message(r#"{"lineHint":2.0}"#),
            "invalid type: floating point `2.0`, expected u32"
        );
        assert_eq!(
            message(r#"{"workBudget":-0.1}"#),
            "invalid type: floating point `-0.1`, expected u32"
        );
        assert_eq!(
            message(r#"{"workBudget":1e20}"#),
            "invalid type: floating point `100000000000000000000.0`, expected u32"
        );
        assert_eq!(
            message(r#"{"workBudget":12345678901.5}"#),
            "invalid type: floating point `12345678901.5`, expected u32"
        );
    }

    #[test]
    fn syntax_errors_say_where() {
        let error = |text: &str| parse(text).unwrap_err().to_string();
        assert_eq!(error(r#"{"a":1,}"#), "key must be a string at byte 7");
        assert_eq!(error("[1 2]"), "expected `,` or `]` at byte 3");
        assert_eq!(
            error("\"\\ud83d\""),
            "lone leading surrogate in hex escape at byte 7"
        );
        assert_eq!(error("1 2"), "trailing characters at byte 2");
        assert_eq!(
            error(&"[".repeat(200)),
            "recursion limit exceeded at byte 127"
        );
    }
}
