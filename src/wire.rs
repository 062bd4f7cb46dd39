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
