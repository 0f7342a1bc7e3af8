//! Share links: a model (or document) carried in a URL, as mongoplayground does, but with no
//! server: the text is deflated and base64url-encoded into the URL's fragment.
//!
//! A link is data from a stranger: decoding is bounded (link length, decompressed size) so a
//! crafted link cannot exhaust memory, and the text it yields is validated like any import.
//!
//! The model is the only data a link carries. Beside it, two short parameters say what was on
//! show: the design (an offer id) and the editor's view (`form` or `json`), so that the person
//! who opens the link sees what the sender saw: `#playground&design=tbc&view=json&model=…`.
//! A link without them (every link made before them) opens the model as it always did.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;

/// The longest link payload accepted, in characters (browsers handle far longer URLs; this
/// keeps a pasted link from being a denial of service).
pub const MAX_LINK_CHARS: usize = 256 * 1024;

/// The largest text a link may expand to, in bytes.
pub const MAX_TEXT_BYTES: usize = 2 * 1024 * 1024;

/// The longest design or view parameter kept, in characters (an offer id is a short name; a
/// longer value is not one and is ignored).
pub const MAX_PARAM_CHARS: usize = 100;

/// What a share link opens: the model, and what was on show when it was made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    /// The model's text.
    pub model: String,
    /// The design on show (an offer id: `tbc`, `normalized`, `custom`), if the link says.
    pub design: Option<String>,
    /// The editor's view on show (`form` or `json`), if the link says.
    pub view: Option<String>,
}

/// Returns the URL fragment (without `#`) that opens the page's view `page` (`playground`)
/// with `link`: the design and view first, the model (the long part) last.
pub fn fragment(page: &str, link: &Link) -> String {
    let mut params = form_urlencoded::Serializer::new(String::new());
    if let Some(d) = &link.design {
        params.append_pair("design", d);
    }
    if let Some(v) = &link.view {
        params.append_pair("view", v);
    }
    let params = params.finish();
    let mut out = page.to_string();
    if !params.is_empty() {
        out.push('&');
        out.push_str(&params);
    }
    out.push_str("&model=");
    out.push_str(&encode(&link.model));
    out
}

/// Returns the link a URL fragment (`#playground&design=…&model=…`, with or without its `#`)
/// carries: `None` when it carries no model, an error when the model cannot be read. A design
/// or view longer than [`MAX_PARAM_CHARS`] is ignored.
pub fn read_fragment(hash: &str) -> Option<Result<Link, ShareError>> {
    let hash = hash.strip_prefix('#').unwrap_or(hash);
    // The model payload is base64url: read it as it is (form decoding would turn nothing in
    // it, but it is the long part and needs no copy through the parser).
    let payload = hash
        .split('&')
        .find_map(|part| part.strip_prefix("model="))?;
    let param = |name: &str| {
        form_urlencoded::parse(hash.as_bytes())
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.into_owned())
            .filter(|v| !v.is_empty() && v.chars().count() <= MAX_PARAM_CHARS)
    };
    Some(decode(payload).map(|model| Link {
        model,
        design: param("design"),
        view: param("view"),
    }))
}

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
    fn a_fragment_carries_the_design_and_view_beside_the_model() {
        let link = Link {
            model: "{\"name\": \"social-feed\"}\n".to_string(),
            design: Some("tbc".to_string()),
            view: Some("json".to_string()),
        };
        let f = fragment("playground", &link);
        assert!(
            f.starts_with("playground&design=tbc&view=json&model="),
            "{f}"
        );
        assert_eq!(read_fragment(&format!("#{f}")), Some(Ok(link.clone())));
        assert_eq!(read_fragment(&f), Some(Ok(link)));
    }

    #[test]
    fn an_old_link_opens_its_model_with_nothing_else() {
        let old = format!("#playground&model={}", encode("{}"));
        assert_eq!(
            read_fragment(&old),
            Some(Ok(Link {
                model: "{}".to_string(),
                design: None,
                view: None,
            }))
        );
        assert_eq!(read_fragment("#playground"), None);
        assert_eq!(read_fragment(""), None);
        assert_eq!(
            read_fragment("#playground&design=tbc&model=not base64!"),
            Some(Err(ShareError::Encoding(
                "Invalid symbol 32, offset 3.".to_string()
            )))
        );
    }

    #[test]
    fn design_names_are_escaped_and_strange_parameters_ignored() {
        let link = Link {
            model: "{}".to_string(),
            design: Some("my design & co/é".to_string()),
            view: None,
        };
        let f = fragment("playground", &link);
        assert!(!f.contains(' ') && !f.contains('é'), "{f}");
        assert_eq!(read_fragment(&f), Some(Ok(link)));
        // Too long, or empty: not a design name; the model still opens.
        let long = format!(
            "playground&design={}&view=&model={}",
            "x".repeat(MAX_PARAM_CHARS + 1),
            encode("{}")
        );
        let read = read_fragment(&long).and_then(Result::ok);
        assert_eq!(read.as_ref().map(|l| l.design.clone()), Some(None));
        assert_eq!(read.map(|l| l.view), Some(None));
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
