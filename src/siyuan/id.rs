//! Block ids: `YYYYMMDDHHMMSS-xxxxxxx`, 14 digits, a dash, 7 lowercase
//! ASCII letters or digits (the kernel's strict pattern; uppercase is
//! rejected because the kernel never makes such ids and SQL must only ever
//! see validated ids).

/// An id of the right shape, for messages.
pub const BLOCK_ID_EXAMPLE: &str = "20260108164554-m5ar6vb";

/// True when `s` is exactly a block id.
pub fn is_block_id(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 22
        && b[..14].iter().all(u8::is_ascii_digit)
        && b[14] == b'-'
        && b[15..]
            .iter()
            .all(|c| c.is_ascii_digit() || c.is_ascii_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_strict_kernel_shape_is_an_id() {
        assert!(is_block_id("20240614083000-a1b2c3d"));
        for bad in [
            "20240614083000-A1B2C3D",
            "2024061408-abc",
            "20240614083000-a1b2c3",
            "20240614083000-a1b2c3dd",
            "20240614083000_a1b2c3d",
            "2024061408300a-a1b2c3d",
            "20240614083000-a1b2c3中",
            "",
        ] {
            assert!(!is_block_id(bad), "{bad}");
        }
    }
}
