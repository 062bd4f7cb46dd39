//! Vocabularies that cross the JS boundary, each declared once.
//!
//! [`wire_enum!`] declares an enum together with its wire strings: the
//! variants, `ALL` (in declaration order), `as_str`, `Display`, and serde's
//! `Serialize`/`Deserialize` through those same strings. The TypeScript
//! unions are generated from `ALL` and `as_str` into
//! `pkg-template/src/wire.generated.ts`; `tests/suite/wire.rs` fails when
//! that file is out of date (`WIRE_WRITE=1 cargo test --test all wire`
//! rewrites it).

/// Declares a wire enum: `Variant = "WIRE_STRING"` per variant (see the
/// module docs).
macro_rules! wire_enum {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $( $(#[$vmeta:meta])* $variant:ident = $wire:literal ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        $vis enum $name {
            $( $(#[$vmeta])* $variant ),*
        }

        impl $name {
            /// Every variant, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$variant),*];

            /// The wire string.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $wire),*
                }
            }
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl ::serde::Serialize for $name {
            fn serialize<S: ::serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }

        impl<'de> ::serde::Deserialize<'de> for $name {
            fn deserialize<D: ::serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let text = <::std::borrow::Cow<'de, str> as ::serde::Deserialize>::deserialize(d)?;
                $name::ALL
                    .iter()
                    .copied()
                    .find(|v| v.as_str() == text)
                    .ok_or_else(|| {
                        const NAMES: &[&str] = &[$($wire),*];
                        ::serde::de::Error::unknown_variant(&text, NAMES)
                    })
            }
        }
    };
}

pub(crate) use wire_enum;

/// Implements `Deserialize` for a struct that has a `Default`, read from
/// an object: each field from the key that is its name in camelCase (or
/// the key written before it), through its type's reader or the named
/// reader type's `.0`; other keys skipped; a missing key leaves the
/// default. That is `#[derive(Deserialize)]` with `#[serde(default,
/// rename_all = "camelCase")]`, less two things no caller reaches: the
/// duplicate-key check (the TS layer writes objects with
/// `JSON.stringify`) and the sequence form. The derive was about 350
/// bytes more of wasm per type (docs/PERFORMANCE.md cut 30). Keys come
/// from the field names, so none can be misspelt.
macro_rules! read_object {
    ($name:ident { $( $($key:literal)? $field:ident $(: $reader:ty)? ),* $(,)? }) => {
        impl<'de> ::serde::Deserialize<'de> for $name {
            fn deserialize<D: ::serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                struct Reader;
                impl<'de> ::serde::de::Visitor<'de> for Reader {
                    type Value = $name;

                    fn expecting(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                        f.write_str(concat!("struct ", stringify!($name)))
                    }

                    fn visit_map<A: ::serde::de::MapAccess<'de>>(
                        self,
                        mut map: A,
                    ) -> Result<$name, A::Error> {
                        let mut out = <$name as ::std::default::Default>::default();
                        while let Some(key) = map.next_key::<::std::borrow::Cow<'de, str>>()? {
                            $(
                                if $crate::wire::read_object!(@is key $field $($key)?) {
                                    out.$field = $crate::wire::read_object!(@value map $($reader)?);
                                    continue;
                                }
                            )*
                            map.next_value::<::serde::de::IgnoredAny>()?;
                        }
                        Ok(out)
                    }
                }
                d.deserialize_map(Reader)
            }
        }
    };
    (@is $key:ident $field:ident) => { $crate::wire::is_camel_case_of(&$key, stringify!($field)) };
    (@is $key:ident $field:ident $wire:literal) => { $key == $wire };
    (@value $map:ident) => { $map.next_value()? };
    (@value $map:ident $reader:ty) => { $map.next_value::<$reader>()?.0 };
}

pub(crate) use read_object;

/// Whether `key` is `snake` (a Rust field name) in camelCase:
/// `expectedReplacements` for `expected_replacements`. A trailing `_`
/// (`type_`) is dropped.
pub(crate) fn is_camel_case_of(key: &str, snake: &str) -> bool {
    let snake = snake.strip_suffix('_').unwrap_or(snake).as_bytes();
    let mut key = key.bytes();
    let mut upper = false;
    for &b in snake {
        if b == b'_' {
            upper = true;
            continue;
        }
        let want = if upper { b.to_ascii_uppercase() } else { b };
        upper = false;
        if key.next() != Some(want) {
            return false;
        }
    }
    key.next().is_none()
}

#[cfg(test)]
mod tests {
    use super::is_camel_case_of;
    use crate::planner::lenient;

    #[derive(Debug, PartialEq)]
    struct Sample {
        line_hint: Option<u32>,
        kind: String,
        new_text: String,
        lang: crate::Lang,
        untouched: bool,
    }

    impl Default for Sample {
        fn default() -> Self {
            Sample {
                line_hint: None,
                kind: "default".into(),
                new_text: String::new(),
                lang: crate::Lang::En,
                untouched: true,
            }
        }
    }

    read_object!(Sample {
        line_hint,
        "type" kind,
        new_text: lenient::Text,
        lang: lenient::LangOf,
        untouched,
    });

    #[test]
    fn objects_are_read_by_their_camel_case_keys() {
        let read = |text: &str| serde_json::from_str::<Sample>(text).map_err(|e| e.to_string());
        assert_eq!(
            read(
                r#"{"lineHint":7,"type":"p","newText":null,"lang":"zh","line_hint":9,"extra":[{}]}"#
            ),
            Ok(Sample {
                line_hint: Some(7),
                kind: "p".into(),
                new_text: String::new(),
                lang: crate::Lang::Zh,
                untouched: true,
            })
        );
        assert_eq!(read("{}"), Ok(Sample::default()));
        assert!(read(r#"{"lineHint":"x"}"#)
            .unwrap_err()
            .starts_with("invalid type: string \"x\", expected u32"));
        assert!(read(r#"{"newText":5}"#)
            .unwrap_err()
            .starts_with("expected a string"));
        assert!(read("[1]")
            .unwrap_err()
            .starts_with("invalid type: sequence, expected struct Sample"));
    }

    #[test]
    fn camel_case_keys_match_their_fields() {
        for (key, field, expected) in [
            ("expectedReplacements", "expected_replacements", true),
            ("mode", "mode", true),
            ("type", "type_", true),
            ("idPrefix", "id_prefix", true),
            ("id_prefix", "id_prefix", false),
            ("idprefix", "id_prefix", false),
            ("IdPrefix", "id_prefix", false),
            ("idPrefixes", "id_prefix", false),
            ("idPrefi", "id_prefix", false),
            ("", "mode", false),
            ("showLineNumbers", "show_line_numbers", true),
        ] {
            assert_eq!(is_camel_case_of(key, field), expected, "{key} / {field}");
        }
    }
}
