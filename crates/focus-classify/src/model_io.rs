//! Model persistence: `FOCUSCLS` magic, a format version, the model kind,
//! then bincode 2.0.1's serde encoding. Corrupt, foreign or mismatched
//! bytes are [`ClassifyError::Model`], never a panic.

use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::ClassifyError;

const MAGIC: &[u8; 8] = b"FOCUSCLS";
/// The format version written by this build.
pub const FORMAT_VERSION: u16 = 3;

/// Which family a model file holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum ModelKind {
    /// [`crate::HierNb`].
    HierNb = 1,
    /// [`crate::Centroids`].
    Centroids = 2,
    /// [`crate::SvmTree`].
    SvmTree = 3,
    /// [`crate::LayeredNb`].
    LayeredNb = 4,
}

/// Encodes a model with its header.
pub fn save<T: Serialize>(kind: ModelKind, model: &T) -> Result<Vec<u8>, ClassifyError> {
    let mut out = MAGIC.to_vec();
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.push(kind as u8);
    let body = bincode::serde::encode_to_vec(model, bincode::config::standard())
        .map_err(|e| ClassifyError::Model(e.to_string()))?;
    out.extend_from_slice(&body);
    Ok(out)
}

/// Decodes a model, checking magic, version and kind.
pub fn load<T: DeserializeOwned>(kind: ModelKind, bytes: &[u8]) -> Result<T, ClassifyError> {
    let err = |m: String| ClassifyError::Model(m);
    let header = bytes
        .get(..11)
        .ok_or_else(|| err("too short for a model header".into()))?;
    if &header[..8] != MAGIC {
        return Err(err("not a focus model (bad magic)".into()));
    }
    let version = u16::from_le_bytes([header[8], header[9]]);
    if version != FORMAT_VERSION {
        return Err(err(format!(
            "format version {version}, this build reads {FORMAT_VERSION}"
        )));
    }
    if header[10] != kind as u8 {
        return Err(err(format!(
            "model kind {} where {:?} was expected",
            header[10], kind
        )));
    }
    let (model, used) =
        bincode::serde::decode_from_slice(&bytes[11..], bincode::config::standard())
            .map_err(|e| err(e.to_string()))?;
    if used != bytes.len() - 11 {
        return Err(err("trailing bytes after the model".into()));
    }
    Ok(model)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_checks() {
        let bytes = save(ModelKind::Centroids, &vec![1.5f64, 2.5]).unwrap();
        assert_eq!(
            load::<Vec<f64>>(ModelKind::Centroids, &bytes).unwrap(),
            vec![1.5, 2.5]
        );
        assert!(load::<Vec<f64>>(ModelKind::HierNb, &bytes).is_err());
        assert!(load::<Vec<f64>>(ModelKind::Centroids, &bytes[..5]).is_err());
        let mut v = bytes.clone();
        v[8] = 9;
        assert!(load::<Vec<f64>>(ModelKind::Centroids, &v)
            .unwrap_err()
            .to_string()
            .contains("version"));
        let mut t = bytes;
        t.push(0);
        assert!(load::<Vec<f64>>(ModelKind::Centroids, &t).is_err());
        assert!(
            load::<Vec<f64>>(ModelKind::Centroids, b"FOCUSCLS\x01\x00\x02\xff\xff\xff").is_err()
        );
    }
}
