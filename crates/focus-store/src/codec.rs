//! The one place values are encoded: a version byte, then bincode 2.0.1's
//! serde encoding with the standard configuration. Unknown versions and
//! undecodable bytes are [`StoreError::Corrupt`], never a panic.

use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::error::StoreError;

/// The value format written by this build.
pub(crate) const VALUE_VERSION: u8 = 1;

pub(crate) fn encode<T: Serialize>(value: &T) -> Result<Vec<u8>, StoreError> {
    let mut out = vec![VALUE_VERSION];
    let body = bincode::serde::encode_to_vec(value, bincode::config::standard())
        .map_err(|e| StoreError::Db(format!("encoding a value: {e}")))?;
    out.extend_from_slice(&body);
    Ok(out)
}

pub(crate) fn decode<T: DeserializeOwned>(
    tree: &'static str,
    key: &[u8],
    bytes: &[u8],
) -> Result<T, StoreError> {
    let corrupt = |reason: String| StoreError::Corrupt {
        tree,
        key: hex(key),
        reason,
    };
    match bytes.split_first() {
        Some((&VALUE_VERSION, body)) => {
            let (value, used) =
                bincode::serde::decode_from_slice(body, bincode::config::standard())
                    .map_err(|e| corrupt(e.to_string()))?;
            if used != body.len() {
                return Err(corrupt(format!("{} trailing bytes", body.len() - used)));
            }
            Ok(value)
        }
        Some((v, _)) => Err(corrupt(format!("unknown value version {v}"))),
        None => Err(corrupt("empty value".to_owned())),
    }
}

pub(crate) fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write as _;
    bytes
        .iter()
        .fold(String::with_capacity(bytes.len() * 2), |mut s, b| {
            let _ = write!(s, "{b:02x}");
            s
        })
}

/// Keys: big-endian ids, so byte order is numeric order.
pub(crate) fn id_key(id: u64) -> [u8; 8] {
    id.to_be_bytes()
}

pub(crate) fn id_of(tree: &'static str, key: &[u8], at: usize) -> Result<u64, StoreError> {
    key.get(at..at + 8)
        .and_then(|s| <[u8; 8]>::try_from(s).ok())
        .map(u64::from_be_bytes)
        .ok_or_else(|| StoreError::Corrupt {
            tree,
            key: hex(key),
            reason: "key is not an id".to_owned(),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_typed_corruption() {
        let v = (7u64, "x".to_owned(), Some(0.5f64));
        let bytes = encode(&v).unwrap();
        assert_eq!(bytes[0], VALUE_VERSION);
        let back: (u64, String, Option<f64>) = decode("t", b"k", &bytes).unwrap();
        assert_eq!(back, v);
        let mut wrong = bytes.clone();
        wrong[0] = 9;
        assert!(matches!(
            decode::<(u64, String, Option<f64>)>("t", b"k", &wrong),
            Err(StoreError::Corrupt { .. })
        ));
        assert!(decode::<(u64, String, Option<f64>)>("t", b"k", &[]).is_err());
        assert!(decode::<(u64, String, Option<f64>)>("t", b"k", &[1, 0xff, 0xff, 0xff]).is_err());
        assert!(id_of("t", &[1, 2], 0).is_err());
        assert_eq!(
            id_of("t", &[0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 4], 8).unwrap(),
            4
        );
    }
}
