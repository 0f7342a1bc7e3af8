//! Any bytes → `squillion infer`'s readers of documents (`Inference::read_input` as mongoexport
//! text, a `.bson` file and an archive, each gzipped or not, and the archive reader behind a
//! valid magic number), then `finish`: never panics, and every skipped item names a byte
//! offset inside what was read.
#![no_main]

use std::collections::BTreeMap;

use libfuzzer_sys::fuzz_target;
use squillion::infer::archive::MAGIC;
use squillion::infer::input::Kind;
use squillion::infer::Inference;

fuzz_target!(|data: &[u8]| {
    for kind in [Kind::Json, Kind::Bson, Kind::Archive] {
        let mut inference = Inference::new();
        let _ = inference.read_input(kind, "c", "fuzz", data, &mut |_, _| {});
        let _ = inference.finish(&BTreeMap::new());
    }
    let mut archive = MAGIC.to_vec();
    archive.extend_from_slice(data);
    let mut inference = Inference::new();
    if inference
        .read_archive("fuzz", &archive[..], &mut |_, _| {})
        .is_ok()
    {
        for s in inference.skipped().0 {
            let byte = s.byte.unwrap_or_default();
            assert!(byte <= archive.len() as u64, "{byte} past {}", archive.len());
        }
    }
    let _ = inference.finish(&BTreeMap::new());
});
