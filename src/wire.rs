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

#[cfg(test)]
mod tests {
    use crate::planner::lenient;
    use serde::Deserialize;

    /// The options types' shape: `#[derive(Deserialize)]` with
    /// `#[serde(default, rename_all = "camelCase")]`, the lenient readers
    /// of the planner, a renamed key and a field that is never read.
    #[derive(Debug, PartialEq, Deserialize)]
    #[serde(default, rename_all = "camelCase")]
    struct Sample {
        line_hint: Option<u32>,
        #[serde(rename = "type")]
        kind: String,
        #[serde(deserialize_with = "lenient::string")]
        new_text: String,
        #[serde(deserialize_with = "lenient::lang")]
        lang: crate::Lang,
        #[serde(skip_deserializing)]
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

    #[test]
    fn objects_are_read_by_their_camel_case_keys() {
        let read = |text: &str| serde_json::from_str::<Sample>(text).map_err(|e| e.to_string());
        assert_eq!(
            read(
                r#"{"lineHint":7,"type":"p","newText":null,"lang":"zh","line_hint":9,"untouched":false,"extra":[{}]}"#
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
        assert!(read("7")
            .unwrap_err()
            .starts_with("invalid type: integer `7`, expected struct Sample"));
    }
}
