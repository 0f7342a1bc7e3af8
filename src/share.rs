//! Share links: a model (or document) carried in a URL, as mongoplayground does, but with no
//! server: the text is deflated and base64url-encoded into the URL's fragment.
//!
//! A link is data from a stranger: decoding is bounded (link length, decompressed size) so a
//! crafted link cannot exhaust memory, and the text it yields is validated like any import.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;

/// The longest link payload accepted, in characters (browsers handle far longer URLs; this
/// keeps a pasted link from being a denial of service).
pub const MAX_LINK_CHARS: usize = 256 * 1024;

/// The largest text a link may expand to, in bytes.
pub const MAX_TEXT_BYTES: usize = 2 * 1024 * 1024;

/// Why a link could not be opened.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ShareError {
    /// The payload is longer than [`MAX_LINK_CHARS`].
    #[error("the link is {0} characters long; links of at most {MAX_LINK_CHARS} are opened")]
    TooLong(usize),
    /// Not base64url.
    #[error("the link is damaged (not base64url): {0}")]
    Encoding(String),
    /// Not deflate data, or larger than [`MAX_TEXT_BYTES`] once expanded.
    #[error("the link is damaged or expands beyond {MAX_TEXT_BYTES} bytes")]
    Inflate,
    /// The expanded bytes are not UTF-8 text.
    #[error("the link does not hold text")]
    NotText,
}

/// Returns `text` as a link payload.
pub fn encode(text: &str) -> String {
    URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(text.as_bytes(), 9))
}

/// Returns the text a link payload carries.
pub fn decode(payload: &str) -> Result<String, ShareError> {
    let chars = payload.chars().count();
    if chars > MAX_LINK_CHARS {
        return Err(ShareError::TooLong(chars));
    }
    let bytes = URL_SAFE_NO_PAD
        .decode(payload.trim())
        .map_err(|e| ShareError::Encoding(e.to_string()))?;
    let inflated = miniz_oxide::inflate::decompress_to_vec_with_limit(&bytes, MAX_TEXT_BYTES)
        .map_err(|_| ShareError::Inflate)?;
    String::from_utf8(inflated).map_err(|_| ShareError::NotText)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_keeps_the_text_exactly() {
        for text in [
            "",
            "{}",
            "{\"name\": \"東京\", \"n\": 1}\n",
            &"x".repeat(100_000),
        ] {
            assert_eq!(decode(&encode(text)).as_deref(), Ok(text));
        }
        // Repetitive JSON compresses well: a link stays short.
        assert!(encode(&"{\"a\": 1},".repeat(1000)).len() < 200);
    }

    #[test]
    fn damaged_links_are_refused_with_a_reason() {
        assert!(matches!(
            decode("not base64!"),
            Err(ShareError::Encoding(_))
        ));
        assert_eq!(decode("AAAA"), Err(ShareError::Inflate));
        let not_text =
            URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(&[0xff, 0xfe], 9));
        assert_eq!(decode(&not_text), Err(ShareError::NotText));
        assert_eq!(
            decode(&"A".repeat(MAX_LINK_CHARS + 1)),
            Err(ShareError::TooLong(MAX_LINK_CHARS + 1))
        );
    }

    #[test]
    fn a_link_that_expands_too_far_is_refused() {
        // 3 MiB of zeros deflate to a few kilobytes: a bomb in a short link.
        let bomb = URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(
            &vec![b'0'; 3 << 20],
            9,
        ));
        assert!(bomb.len() < MAX_LINK_CHARS);
        assert_eq!(decode(&bomb), Err(ShareError::Inflate));
    }
}
