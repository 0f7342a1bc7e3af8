//! Native time-series collections (the `time_series` strategy): the bucket document's exact
//! size checked against pymongo's `bson`, the layout's arithmetic against real buckets, and the
//! server's bucketing rules.
#![cfg(not(target_arch = "wasm32"))]

use bson::oid::ObjectId;
use bson::{doc, DateTime, Document};
use squillion::design::names::BUCKET_LABEL;
use squillion::design::place::{measurements_per_bucket, BUCKET_MAX_COUNT, BUCKET_MAX_SIZE};
use squillion::design::Layout;
use squillion::model::design::{DesignSpec, Granularity, Strategy};
use squillion::size::bsoncolumn::encode_column;
use squillion::size::document_size;
use squillion::size::timeseries::{
    bucket_document, bucket_size, compressed_bucket, compressed_size,
};

/// `n` host-logs measurements of one host, a second apart from 2024-03-01 10:00:30 (fixed
/// 80-byte messages, as the preset's).
fn measurements(n: usize) -> Vec<Document> {
    let host = ObjectId::from_bytes([7; 12]);
    let start = 1_709_287_230_000_i64;
    (0..n)
        .map(|i| {
            let mut id = [1u8; 12];
            id[8..].copy_from_slice(&(i as u32).to_be_bytes());
            doc! {
                "_id": ObjectId::from_bytes(id),
                "time": DateTime::from_millis(start + 1_000 * i as i64),
                "message": format!("{:<80}", format!("message {i}")),
                "host": host,
            }
        })
        .collect()
}

#[test]
fn the_bucket_is_the_servers_shape_and_its_size_exact() {
    let ms = measurements(208);
    let b = bucket_document(&ms, "time", "host", 60).unwrap_or_else(|| panic!("no bucket"));
    let keys: Vec<&String> = b.keys().collect();
    assert_eq!(keys, ["_id", "control", "meta", "data"]);
    let control = b.get_document("control").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(control.get_i32("version").ok(), Some(1));
    // The minimum time is rounded down to the minute; the _id's timestamp is that time.
    let min = control
        .get_document("min")
        .and_then(|m| m.get_datetime("time"))
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(min.timestamp_millis(), 1_709_287_200_000);
    let id = b.get_object_id("_id").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(id.timestamp().timestamp_millis(), 1_709_287_200_000);
    let data = b.get_document("data").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(data.keys().collect::<Vec<_>>(), ["_id", "time", "message"]);
    assert_eq!(data.get_document("time").map(|c| c.len()).ok(), Some(208));
    let bytes = b.to_vec().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(document_size(&b), bytes.len() as u64);
    assert_eq!(
        bucket_size(&ms, "time", "host", 60),
        Some(bytes.len() as u64)
    );
    // Column compressed (bucket version 2): well below the uncompressed size (the dates and
    // ids are deltas), above the messages' own bytes (80-byte strings are literals).
    let est = compressed_size(&b);
    assert!(
        est < bytes.len() as u64 && est > 208 * 80,
        "{est} {}",
        bytes.len()
    );
}

#[test]
fn the_compressed_bucket_is_version_2_with_column_binaries() {
    let ms = measurements(208);
    let b = bucket_document(&ms, "time", "host", 60).unwrap_or_else(|| panic!("no bucket"));
    let v2 = compressed_bucket(&b).unwrap_or_else(|| panic!("not a bucket"));
    let control = v2.get_document("control").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(control.get_i32("version").ok(), Some(2));
    assert_eq!(control.get_i32("count").ok(), Some(208));
    let data = v2.get_document("data").unwrap_or_else(|e| panic!("{e}"));
    let Some(bson::Bson::Binary(time)) = data.get("time") else {
        panic!("the time column is no binary");
    };
    assert_eq!(time.subtype, bson::spec::BinarySubtype::Column);
    let time = &time.bytes;
    // The time column, a reading a second apart: the first time as a literal (type 9, empty
    // name, 8 bytes), one control byte of 5 Simple-8b words (0x84), EOO. The words: the first
    // delta-of-delta (1,000 ms, zig-zag 2,000, 11 bits) with 4 zeros in selector 10 (5 × 12
    // bits); an RLE word (selector 15) of 120 zeros; the last 82 zeros, which follow the run,
    // as 60 of 1 bit (selector 1), 20 of 3 bits (selector 3) and 2 of 30 bits (selector 13).
    let mut want = vec![0x09, 0x00];
    want.extend(1_709_287_230_000_i64.to_le_bytes());
    want.push(0x84);
    for w in [10_u64 | (2_000 << 4), 15, 1, 3, 13] {
        want.extend(w.to_le_bytes());
    }
    want.push(0);
    assert_eq!(time, &want);
    let col: Vec<_> = ms.iter().map(|m| m.get("time")).collect();
    assert_eq!(encode_column(&col), want);
    // The bucket: 25,013 bytes as version 1, 18,599 as version 2: the 208 messages of 80 bytes
    // stay literals (87 bytes each, 18,096), the ids and times shrink to a few words.
    let v1 = document_size(&b);
    let v2 = document_size(&v2);
    assert_eq!((v1, v2), (25_013, 18_599));
}

#[test]
fn a_time_series_collection_is_column_compressed_then_zstd() {
    use squillion::eval::{evaluate, Design, EvalOptions};
    use squillion::storage::Codec;
    let p = squillion::presets::find("host-logs").unwrap_or_else(|e| panic!("{e}"));
    let m = p.model().unwrap_or_else(|e| panic!("{e}"));
    let o = squillion::eval::offer::offer(&m, "time-series")
        .unwrap_or_else(|| panic!("host-logs offers no time-series design"));
    let e = evaluate(&o.model, &Design::Model, &EvalOptions::default())
        .unwrap_or_else(|e| panic!("{e}"));
    let st = e
        .storage
        .collections
        .iter()
        .find(|c| c.collection == "system.buckets.logmsg")
        .unwrap_or_else(|| panic!("no buckets"));
    assert_eq!(st.block_compressor, Codec::Zstd);
    assert!(st.column_compressed);
    let host = e
        .storage
        .collections
        .iter()
        .find(|c| c.collection == "host")
        .unwrap_or_else(|| panic!("no host"));
    assert_eq!(host.block_compressor, Codec::Snappy);
    assert!(!host.column_compressed);
    // The same buckets under snappy (the old figure): the version-1 buckets of the sample.
    let (model, layout) = sample(&o.model);
    let data = squillion::generate::generate(&model, &layout);
    let buckets = &data
        .collection("system.buckets.logmsg")
        .unwrap_or_else(|| panic!("no sample buckets"))
        .documents;
    let snappy = squillion::storage::compression_ratio(buckets);
    let disk = squillion::storage::bucket_disk(buckets);
    eprintln!(
        "host-logs buckets: v1 {} B, v2 {} B, zstd {} B; ratio {:.4} (snappy on v1 {:.4}); eval ratio {:.4}",
        disk.uncompressed,
        disk.column_compressed,
        disk.on_disk,
        disk.ratio(),
        snappy,
        st.compression_ratio
    );
    if let Ok(dir) = std::env::var("SQUILLION_DUMP_PAGES") {
        dump_pages(&dir, "host-logs", buckets);
        let p = squillion::presets::find("page-analytics").unwrap_or_else(|e| panic!("{e}"));
        let m = p.model().unwrap_or_else(|e| panic!("{e}"));
        let o = squillion::eval::offer::offer(&m, "time-series")
            .unwrap_or_else(|| panic!("no time-series design"));
        let (model, layout) = sample(&o.model);
        let data = squillion::generate::generate(&model, &layout);
        let buckets = &data
            .collection("system.buckets.hit")
            .unwrap_or_else(|| panic!("no sample buckets"))
            .documents;
        dump_pages(&dir, "page-analytics", buckets);
    }
    assert!(disk.column_compressed < disk.uncompressed);
    assert!(
        st.compression_ratio < 0.9 * snappy,
        "{} {snappy}",
        st.compression_ratio
    );
    assert!((st.disk_bytes.value - st.data_bytes.value * st.compression_ratio).abs() < 1.0);
}

/// The model the evaluation generates its sample from (fitted to its budget) and its layout.
fn sample(m: &squillion::model::Model) -> (squillion::model::Model, Layout) {
    let layout = squillion::design::layout_model(m).unwrap_or_else(|e| panic!("{e}"));
    let fitted =
        squillion::eval::fitted_sample(m, &layout, &squillion::eval::EvalOptions::default())
            .unwrap_or_else(|e| panic!("{e:?}"));
    (fitted, layout)
}

/// Writes the version-2 pages of `buckets` to `dir/<name>-<i>.bson` and prints the zstd
/// encoder's figures (the reference: the same pages compressed by libzstd at level 6).
fn dump_pages(dir: &str, name: &str, buckets: &[Document]) {
    let (disk, pages) = squillion::storage::bucket_disk_pages(buckets, true);
    let snappy = squillion::storage::compression_ratio(buckets);
    eprintln!(
        "{name}: {} buckets, v1 {} B, v2 {} B, ruzstd {} B over {} pages; snappy on v1 {:.4}",
        buckets.len(),
        disk.uncompressed,
        disk.column_compressed,
        disk.on_disk,
        pages.len(),
        snappy
    );
    if let Some(v2) = buckets.first().and_then(compressed_bucket) {
        let v1 = buckets.first().and_then(|b| b.get_document("data").ok());
        for (k, v) in v2.get_document("data").into_iter().flatten() {
            if let bson::Bson::Binary(b) = v {
                let n = v1.and_then(|d| d.get_document(k).ok());
                eprintln!(
                    "  {k}: {} values, v1 {} B, v2 {} B; first {:?}, second {:?}",
                    n.map_or(0, |d| d.len()),
                    n.map_or(0, document_size),
                    b.bytes.len(),
                    n.and_then(|d| d.get("0")),
                    n.and_then(|d| d.get("1")),
                );
            }
        }
    }
    for (i, page) in pages.iter().enumerate() {
        std::fs::write(format!("{dir}/{name}-{i:04}.bson"), page).unwrap_or_else(|e| panic!("{e}"));
    }
}

#[test]
fn pymongo_builds_the_same_bucket_bytes() {
    let ms = measurements(208);
    let b = bucket_document(&ms, "time", "host", 60).unwrap_or_else(|| panic!("no bucket"));
    let ours = b.to_vec().unwrap_or_else(|e| panic!("{e}"));
    let mut input = Vec::new();
    for m in &ms {
        input.extend(m.to_vec().unwrap_or_else(|e| panic!("{e}")));
    }
    let hex: String = input.iter().map(|b| format!("{b:02x}")).collect();
    // The server's bucket, built by pymongo from the same measurements: control.min/max per
    // field, time rounded down to 60 s, _id timestamp = that time, data column by column.
    let script = r#"
import sys, bson, datetime
from bson import ObjectId, SON
ms = bson.decode_all(bytes.fromhex(sys.argv[1]), bson.CodecOptions(document_class=SON, tz_aware=True))
cols, mn, mx = SON(), SON(), SON()
for i, m in enumerate(ms):
    for k, v in m.items():
        if k == 'host': continue
        cols.setdefault(k, SON())[str(i)] = v
        if k not in mn or v < mn[k]: mn[k] = v
        if k not in mx or v > mx[k]: mx[k] = v
t = mn['time']
epoch = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)
secs = int((t - epoch).total_seconds()) // 60 * 60
mn['time'] = epoch + datetime.timedelta(seconds=secs)
oid = ObjectId(secs.to_bytes(4, 'big') + bytes(8))
b = SON([('_id', oid), ('control', SON([('version', 1), ('min', mn), ('max', mx)])), ('meta', ms[0]['host']), ('data', cols)])
print(bson.encode(b).hex())
"#;
    match std::process::Command::new("python3")
        .args(["-c", script, &hex])
        .output()
    {
        Ok(out) if out.status.success() => {
            let theirs = String::from_utf8_lossy(&out.stdout).trim().to_string();
            let ours_hex: String = ours.iter().map(|b| format!("{b:02x}")).collect();
            assert_eq!(theirs.len(), ours_hex.len(), "sizes differ");
            assert_eq!(theirs, ours_hex);
        }
        Ok(out) => panic!("python3: {}", String::from_utf8_lossy(&out.stderr)),
        Err(_) => eprintln!("python3 with pymongo not available: checked against bson-rust only"),
    }
}

/// The host-logs model under a time-series design.
fn host_logs(granularity: Granularity) -> (squillion::model::Model, Layout) {
    let p = squillion::presets::find("host-logs").unwrap_or_else(|e| panic!("{e}"));
    let m = p.model().unwrap_or_else(|e| panic!("{e}"));
    let mut spec = DesignSpec::default();
    spec.relationships
        .insert("logs".into(), Strategy::TimeSeries { granularity });
    let l = Layout::build(&m, &spec).unwrap_or_else(|e| panic!("{e}"));
    (m, l)
}

#[test]
fn the_layouts_bucket_size_is_a_real_buckets() {
    let (m, l) = host_logs(Granularity::Seconds);
    let c = l
        .collection("system.buckets.logmsg")
        .unwrap_or_else(|| panic!("no buckets collection"));
    assert!(l.collection("logmsg").is_none());
    let shape = c
        .shape(BUCKET_LABEL)
        .unwrap_or_else(|| panic!("no bucket shape"));
    // 5,000 messages a day for a typical host: 208 in the hour a seconds bucket spans.
    let r = m.relationship("logs").unwrap_or_else(|| panic!("no logs"));
    assert_eq!(measurements_per_bucket(r, Granularity::Seconds, 130), 208);
    let size = squillion::arith::document_size_of(&shape.fields, squillion::arith::At::Mean);
    assert!(size.exact);
    assert_eq!(
        Some(size.whole()),
        bucket_size(&measurements(208), "time", "host", 60)
    );
    // The server's index on the buckets, in place of the plan's.
    let keys: Vec<String> = c.indexes.iter().map(|i| i.keys.to_string()).collect();
    assert_eq!(
        keys,
        [r#"{ "meta": 1, "control.min.time": 1, "control.max.time": 1 }"#]
    );
    // A coarser granularity spans 30 days: the size rule closes the bucket first, at
    // 128,000 ÷ 148 bytes a measurement (with its host) = 864.
    let (_, hours) = host_logs(Granularity::Hours);
    let shape = hours
        .collection("system.buckets.logmsg")
        .and_then(|c| c.shape(BUCKET_LABEL))
        .unwrap_or_else(|| panic!("no bucket shape"));
    let ids = shape
        .fields
        .get("data")
        .and_then(|d| d.fields.get("_id"))
        .map_or(0, |c| c.fields.0.len() as u64);
    assert_eq!(ids, BUCKET_MAX_SIZE / 148);
    assert!(ids < BUCKET_MAX_COUNT);
}

#[test]
fn a_time_series_needs_a_dated_child_of_another_entity() {
    let text = std::fs::read_to_string("presets/host-logs.json").unwrap_or_else(|e| panic!("{e}"));
    let bad = text.replace("\"type\": \"date\"", "\"type\": \"string\"");
    let errs = squillion::model::parse_model(&bad)
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(errs.contains("needs a date field in \"logmsg\""), "{errs}");
    let bad = text.replace("\"granularity\": \"seconds\"", "\"granularity\": \"days\"");
    let errs = squillion::model::parse_model(&bad)
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(errs.contains("unknown granularity \"days\""), "{errs}");
}

/// Warnings of host-logs under `design` with a typical host logging `per_day` messages.
fn warnings_at(per_day: u64, granularity: &str) -> Vec<squillion::warning::Warning> {
    let text = std::fs::read_to_string("presets/host-logs.json").unwrap_or_else(|e| panic!("{e}"));
    let text = text
        .replace("\"typical\": 5000", &format!("\"typical\": {per_day}"))
        .replace(
            "\"granularity\": \"seconds\"",
            &format!("\"granularity\": \"{granularity}\""),
        );
    let m = squillion::model::parse_model(&text).unwrap_or_else(|e| panic!("{e}"));
    let (_, offer) = squillion::eval::offer::offer(&m, "time-series")
        .map(|o| (o.id, o.model))
        .unwrap_or_else(|| panic!("no time-series design"));
    let l = squillion::design::layout_model(&offer).unwrap_or_else(|e| panic!("{e}"));
    squillion::warning::check(&offer, &l)
}

#[test]
fn a_granularity_too_fine_for_the_rate_is_warned() {
    let code = "SPARSE_TIME_SERIES_BUCKETS";
    // 5,000 a day: 208 in an hour, no warning.
    assert!(!warnings_at(5_000, "seconds").iter().any(|w| w.code == code));
    // 100 a day: 4 in an hour (⌊100 × 3,600 ÷ 86,400⌋), below 10.
    let w = warnings_at(100, "seconds");
    let sparse = w
        .iter()
        .find(|w| w.code == code)
        .unwrap_or_else(|| panic!("{w:?}"));
    assert_eq!(sparse.collection, "system.buckets.logmsg");
    assert!(
        sparse.message.contains(": 4 measurement(s) a bucket"),
        "{}",
        sparse.message
    );
    // Minutes span a day: 100 a bucket, no warning.
    assert!(!warnings_at(100, "minutes").iter().any(|w| w.code == code));
}

#[test]
fn the_picker_and_the_advisor_offer_it_only_for_measurements() {
    let offers = |preset: &str, rel: &str| -> Option<Granularity> {
        let p = squillion::presets::find(preset).unwrap_or_else(|e| panic!("{e}"));
        let m = p.model().unwrap_or_else(|e| panic!("{e}"));
        squillion::model::design::strategies_for(&m, rel)
            .into_iter()
            .find_map(|s| match s {
                Strategy::TimeSeries { granularity } => Some(granularity),
                _ => None,
            })
    };
    // Log messages: dated, inserted and read only through their host; 5,000 a day fill an
    // hour's bucket with 208.
    assert_eq!(offers("host-logs", "logs"), Some(Granularity::Seconds));
    // The finest granularity whose span holds 10 of a series' measurements.
    assert_eq!(Granularity::fitting(240.0), Some(Granularity::Seconds));
    assert_eq!(Granularity::fitting(239.0), Some(Granularity::Minutes));
    assert_eq!(Granularity::fitting(10.0), Some(Granularity::Minutes));
    assert_eq!(Granularity::fitting(2.0), Some(Granularity::Hours));
    assert_eq!(Granularity::fitting(0.3), None);
    // Orders: dated, but the parents of their items and updated by themselves.
    assert_eq!(offers("shopping-cart", "orders"), None);
    // Comments, 0.1 a day a typical post: 3 in 30 days, too few for any bucket.
    assert_eq!(offers("blog", "comments"), None);
}

/// The time-series designs give every step's logical answer (`eval::answer`, decoding the
/// buckets as the server's view does): "log a message" and "count a hit" store the
/// measurement's fields in the next slot of the open bucket's columns (not only its bounds),
/// and the newest 1000 of the busiest host come from the buckets with the newest
/// `control.min.time`, which hold them because the buckets are filled in time order.
#[test]
fn time_series_designs_give_every_steps_logical_answer() {
    use squillion::eval::answer::check_offered;
    for (preset, design) in [
        ("host-logs", "time-series"),
        ("page-analytics", "time-series"),
    ] {
        let m = squillion::presets::find(preset)
            .unwrap_or_else(|e| panic!("{e}"))
            .model()
            .unwrap_or_else(|e| panic!("{e}"));
        let opts = squillion::eval::EvalOptions {
            max_documents: Some(60),
            ..Default::default()
        };
        let r = check_offered(&m, design, &opts).unwrap_or_else(|e| panic!("{preset}: {e}"));
        let problems: Vec<String> = r.problems.iter().map(ToString::to_string).collect();
        assert!(problems.is_empty(), "{preset}: {}", problems.join("\n"));
        assert!(
            r.unchecked.is_empty(),
            "{preset}: not checked: {:?}",
            r.unchecked
        );
        assert!(
            r.checked >= m.workload.len(),
            "{preset}: {} checked",
            r.checked
        );
    }
}

/// The generated buckets are the server's: each column's bounds in `control.min` and
/// `control.max`, the time column in slot order, and a host's buckets covering successive
/// spans of time (each bucket's first measurement no earlier than the previous bucket's last).
#[test]
fn generated_buckets_are_filled_in_time_order_with_their_own_bounds() {
    use bson::Bson;
    let (m, l) = host_logs(Granularity::Seconds);
    let data = squillion::generate::generate(&m, &l);
    let buckets = data
        .collection("system.buckets.logmsg")
        .unwrap_or_else(|| panic!("no buckets generated"));
    let time = |b: &Document| -> Vec<i64> {
        b.get_document("data")
            .and_then(|d| d.get_document("time"))
            .map(|c| {
                c.values()
                    .filter_map(|v| v.as_datetime().map(|t| t.timestamp_millis()))
                    .collect()
            })
            .unwrap_or_default()
    };
    let mut last_of_host: std::collections::HashMap<String, i64> = Default::default();
    let mut followed = 0;
    for (i, b) in buckets.documents.iter().enumerate() {
        let times = time(b);
        assert!(!times.is_empty(), "bucket {i} has no times");
        assert!(
            times.windows(2).all(|w| w[0] <= w[1]),
            "bucket {i} out of order"
        );
        let control = b.get_document("control").unwrap_or_else(|e| panic!("{e}"));
        let bound = |which: &str| {
            control
                .get_document(which)
                .ok()
                .and_then(|d| d.get("time"))
                .and_then(Bson::as_datetime)
                .map(|t| t.timestamp_millis())
        };
        assert_eq!(
            bound("min"),
            times.first().copied(),
            "bucket {i} control.min"
        );
        assert_eq!(
            bound("max"),
            times.last().copied(),
            "bucket {i} control.max"
        );
        let host = b.get("meta").map(ToString::to_string).unwrap_or_default();
        if let Some(prev) = last_of_host.get(&host) {
            assert!(
                times[0] >= *prev,
                "bucket {i} starts before its host's previous bucket ends"
            );
            followed += 1;
        }
        last_of_host.insert(host, times.last().copied().unwrap_or(0));
    }
    assert!(followed > 0, "no host has two buckets in the sample");
}
