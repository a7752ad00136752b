//! A page's text from its bytes: the `Content-Type` charset, then a
//! byte-order mark, then a `<meta charset>` in the first KiB, then
//! chardetng's guess, decoded to UTF-8. The fetcher decodes every page it
//! fetches this way, and the example loader every page a user saved, so a
//! page saved from the web reads the same as the page fetched from it.

use encoding_rs::Encoding;

/// The charset parameter of a `Content-Type` value.
fn from_content_type(ct: &str) -> Option<&'static Encoding> {
    ct.split(';').skip(1).find_map(|p| {
        let (k, v) = p.split_once('=')?;
        k.trim()
            .eq_ignore_ascii_case("charset")
            .then(|| Encoding::for_label(v.trim().trim_matches(['"', '\'']).as_bytes()))
            .flatten()
    })
}

/// A `<meta charset=...>` or `<meta http-equiv content="...; charset=...">`
/// in the first 1024 bytes.
fn sniff_meta(bytes: &[u8]) -> Option<&'static Encoding> {
    let head = &bytes[..bytes.len().min(1024)];
    let lower: Vec<u8> = head.iter().map(u8::to_ascii_lowercase).collect();
    let at = lower.windows(8).position(|w| w == b"charset=")?;
    let rest = &head[at + 8..];
    let rest = rest
        .strip_prefix(b"\"")
        .or_else(|| rest.strip_prefix(b"'"))
        .unwrap_or(rest);
    let end = rest
        .iter()
        .position(|b| matches!(b, b'"' | b'\'' | b';' | b'>' | b' ' | b'/'))
        .unwrap_or(rest.len());
    Encoding::for_label(&rest[..end])
}

/// Decodes `bytes` to UTF-8; returns the text and the charset used.
/// `content_type` is the `Content-Type` value the bytes came with (`""`
/// when none, as for a file).
pub fn decode(bytes: &[u8], content_type: &str) -> (String, &'static str) {
    let encoding = from_content_type(content_type)
        .or_else(|| Encoding::for_bom(bytes).map(|(e, _)| e))
        .or_else(|| sniff_meta(bytes))
        .unwrap_or_else(|| {
            let mut det = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
            det.feed(bytes, true);
            det.guess(None, chardetng::Utf8Detection::Allow)
        });
    let (text, used, _) = encoding.decode(bytes);
    (text.into_owned(), used.name())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_then_meta_then_guess() {
        let latin1 = b"caf\xe9";
        assert_eq!(decode(latin1, "text/html; charset=ISO-8859-1").0, "café");
        let meta = b"<html><head><meta charset=\"windows-1252\"></head>caf\xe9";
        let (t, cs) = decode(meta, "text/html");
        assert!(t.ends_with("café"));
        assert_eq!(cs, "windows-1252");
        let (t, cs) = decode("naïve café".as_bytes(), "text/html");
        assert_eq!((t.as_str(), cs), ("naïve café", "UTF-8"));
        assert_eq!(
            sniff_meta(b"<meta http-equiv=Content-Type content='text/html; charset=koi8-r'>")
                .map(Encoding::name),
            Some("KOI8-R")
        );
    }
}
