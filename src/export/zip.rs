//! A minimal zip archive writer, in memory: the page's export is one `.zip` download.
//!
//! Ours rather than the `zip` crate's, for a measured reason (issue #14, docs/size.md): the
//! `zip` crate (9.8, without default features, so storing only) writing these same archives
//! added 28,489 B to the page's gzipped wasm (852,725 → 881,214 B), 3.5 % of the page, for
//! what this file does in about 150 lines; that alone is more than the whole growth issue #14
//! allows (what std's sort adds back). Its archives held the same files with the same contents
//! (checked with Python's `zipfile` and `unzip -t` on every preset's export); only header
//! fields (version needed, made by) differed.
//!
//! Entries are STORED (method 0, no compression), on purpose: mongoimport and mongosh read the
//! files uncompressed, so an archive is only a way to hand over several files at once; storing
//! keeps the writer a few dozen lines with no deflate code in the page's WebAssembly (the share
//! link's `miniz_oxide` is only used to inflate small models), and the browser builds the
//! archive as fast as it can copy bytes. The layout is the classic one (APPNOTE 6.3.x §4.3): a
//! local file header before each file's bytes, a central directory, an end-of-central-directory
//! record — no zip64, so the archive stays under 4 GiB and 65,535 entries (the writer's byte
//! limit is lower anyway). Times are fixed at 1980-01-01 00:00, so the same export gives the
//! same bytes.
//!
//! Each local header is written with the CRC-32 and sizes zeroed and patched when the entry
//! ends (the archive is in memory): no data descriptors, which some readers handle poorly.

use std::io::{self, Write};

/// The CRC-32 zip wants (IEEE 802.3, reflected polynomial 0xEDB88320: the `crc` crate's
/// CRC-32/ISO-HDLC), computed over an entry's bytes as they are written.
const ZIP_CRC: crc::Crc<u32> = crc::Crc::<u32>::new(&crc::CRC_32_ISO_HDLC);

/// A running CRC-32 of an entry's bytes.
#[derive(Clone)]
pub struct Crc32(crc::Digest<'static, u32>);

impl std::fmt::Debug for Crc32 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Crc32({:#010x})", self.value())
    }
}

impl Crc32 {
    /// Returns the CRC of no bytes.
    pub fn new() -> Crc32 {
        Crc32(ZIP_CRC.digest())
    }

    /// Adds `bytes`.
    pub fn update(&mut self, bytes: &[u8]) {
        self.0.update(bytes);
    }

    /// Returns the CRC of the bytes added.
    pub fn value(&self) -> u32 {
        self.0.clone().finalize()
    }
}

impl Default for Crc32 {
    fn default() -> Self {
        Crc32::new()
    }
}

/// Bytes an archive may hold when no limit is given: under zip's 4 GiB without zip64.
pub const MAX_ARCHIVE_BYTES: u64 = u32::MAX as u64 - (1 << 20);

/// DOS date of 1980-01-01 (the earliest a zip can say): fixed, so archives are reproducible.
const DOS_DATE: u16 = (1 << 5) | 1;

/// The entry being written.
#[derive(Debug)]
struct Open {
    name: String,
    header_at: usize,
    data_at: usize,
    crc: Crc32,
}

/// One finished entry, for the central directory.
#[derive(Debug)]
struct Entry {
    name: String,
    header_at: u32,
    crc: u32,
    size: u32,
}

/// An archive built in memory: [`ZipWriter::start`] an entry, write its bytes through
/// [`Write`], start the next, [`ZipWriter::finish`] for the archive's bytes.
#[derive(Debug)]
pub struct ZipWriter {
    buf: Vec<u8>,
    entries: Vec<Entry>,
    open: Option<Open>,
    limit: u64,
}

fn too_big(limit: u64) -> io::Error {
    io::Error::other(format!(
        "the archive would pass {} MiB",
        limit.div_ceil(1 << 20)
    ))
}

impl ZipWriter {
    /// Returns an empty archive that refuses to grow past `limit` bytes (at most
    /// [`MAX_ARCHIVE_BYTES`]): a write that would pass it fails.
    pub fn new(limit: u64) -> ZipWriter {
        ZipWriter {
            buf: Vec::new(),
            entries: Vec::new(),
            open: None,
            limit: limit.min(MAX_ARCHIVE_BYTES),
        }
    }

    /// Returns the bytes written so far.
    pub fn len(&self) -> u64 {
        self.buf.len() as u64
    }

    /// Returns true before anything is written.
    pub fn is_empty(&self) -> bool {
        self.buf.is_empty()
    }

    fn reserve(&self, more: usize) -> io::Result<()> {
        if self.len().saturating_add(more as u64) > self.limit {
            Err(too_big(self.limit))
        } else {
            Ok(())
        }
    }

    /// Ends the entry being written (if any) and starts one called `name` (`/`-separated).
    pub fn start(&mut self, name: &str) -> io::Result<()> {
        self.end_entry()?;
        if self.entries.len() >= usize::from(u16::MAX) {
            return Err(io::Error::other("too many files for a zip archive"));
        }
        let name_len = u16::try_from(name.len())
            .map_err(|_| io::Error::other("a file name is too long for a zip archive"))?;
        self.reserve(30 + name.len())?;
        let header_at = self.buf.len();
        let b = &mut self.buf;
        b.extend_from_slice(&0x0403_4b50u32.to_le_bytes()); // local file header signature
        b.extend_from_slice(&20u16.to_le_bytes()); // version needed: 2.0
        b.extend_from_slice(&(1u16 << 11).to_le_bytes()); // flags: the name is UTF-8
        b.extend_from_slice(&0u16.to_le_bytes()); // method: stored
        b.extend_from_slice(&0u16.to_le_bytes()); // time
        b.extend_from_slice(&DOS_DATE.to_le_bytes()); // date
        b.extend_from_slice(&[0; 12]); // CRC-32, sizes: patched by end_entry
        b.extend_from_slice(&name_len.to_le_bytes());
        b.extend_from_slice(&0u16.to_le_bytes()); // extra field length
        b.extend_from_slice(name.as_bytes());
        self.open = Some(Open {
            name: name.to_string(),
            header_at,
            data_at: self.buf.len(),
            crc: Crc32::new(),
        });
        Ok(())
    }

    /// Ends the entry being written: its CRC and sizes go into its local header.
    fn end_entry(&mut self) -> io::Result<()> {
        let Some(open) = self.open.take() else {
            return Ok(());
        };
        let size = u32::try_from(self.buf.len() - open.data_at).map_err(|_| too_big(self.limit))?;
        let header_at = u32::try_from(open.header_at).map_err(|_| too_big(self.limit))?;
        let crc = open.crc.value();
        let patch = [crc.to_le_bytes(), size.to_le_bytes(), size.to_le_bytes()].concat();
        if let Some(slot) = self.buf.get_mut(open.header_at + 14..open.header_at + 26) {
            slot.copy_from_slice(&patch);
        }
        self.entries.push(Entry {
            name: open.name,
            header_at,
            crc,
            size,
        });
        Ok(())
    }

    /// Ends the last entry and returns the archive: the entries, the central directory and
    /// the end record.
    pub fn finish(mut self) -> io::Result<Vec<u8>> {
        self.end_entry()?;
        let directory_at = u32::try_from(self.buf.len()).map_err(|_| too_big(self.limit))?;
        let directory_len: usize = self.entries.iter().map(|e| 46 + e.name.len()).sum();
        self.reserve(directory_len + 22)?;
        for e in &self.entries {
            let b = &mut self.buf;
            b.extend_from_slice(&0x0201_4b50u32.to_le_bytes()); // central directory signature
            b.extend_from_slice(&20u16.to_le_bytes()); // made by: 2.0, MS-DOS attributes
            b.extend_from_slice(&20u16.to_le_bytes()); // version needed
            b.extend_from_slice(&(1u16 << 11).to_le_bytes()); // flags: UTF-8 name
            b.extend_from_slice(&0u16.to_le_bytes()); // stored
            b.extend_from_slice(&0u16.to_le_bytes()); // time
            b.extend_from_slice(&DOS_DATE.to_le_bytes());
            b.extend_from_slice(&e.crc.to_le_bytes());
            b.extend_from_slice(&e.size.to_le_bytes()); // compressed size
            b.extend_from_slice(&e.size.to_le_bytes()); // uncompressed size
            b.extend_from_slice(&(e.name.len() as u16).to_le_bytes());
            b.extend_from_slice(&[0; 8]); // extra, comment lengths, disk number, internal attributes
            b.extend_from_slice(&0u32.to_le_bytes()); // external attributes
            b.extend_from_slice(&e.header_at.to_le_bytes());
            b.extend_from_slice(e.name.as_bytes());
        }
        let count = self.entries.len() as u16;
        let b = &mut self.buf;
        b.extend_from_slice(&0x0605_4b50u32.to_le_bytes()); // end of central directory
        b.extend_from_slice(&[0; 4]); // this disk, the directory's disk
        b.extend_from_slice(&count.to_le_bytes()); // entries on this disk
        b.extend_from_slice(&count.to_le_bytes()); // entries
        b.extend_from_slice(&(directory_len as u32).to_le_bytes());
        b.extend_from_slice(&directory_at.to_le_bytes());
        b.extend_from_slice(&0u16.to_le_bytes()); // comment length
        Ok(self.buf)
    }
}

impl Write for ZipWriter {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.reserve(bytes.len())?;
        let Some(open) = self.open.as_mut() else {
            return Err(io::Error::other("no zip entry started"));
        };
        open.crc.update(bytes);
        self.buf.extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc32_matches_the_standard_check_value() {
        let mut c = Crc32::new();
        c.update(b"123456789");
        assert_eq!(c.value(), 0xCBF4_3926);
        let mut split = Crc32::new();
        split.update(b"1234");
        split.update(b"56789");
        assert_eq!(split.value(), 0xCBF4_3926);
        assert_eq!(Crc32::new().value(), 0);
    }

    fn archive(files: &[(&str, &[u8])]) -> Vec<u8> {
        let mut z = ZipWriter::new(MAX_ARCHIVE_BYTES);
        for (name, bytes) in files {
            z.start(name).unwrap();
            // In pieces, as the export writes it.
            for chunk in bytes.chunks(7) {
                z.write_all(chunk).unwrap();
            }
        }
        z.finish().unwrap()
    }

    /// Python's zipfile reads the archive back: names, contents, CRCs (`testzip`).
    #[cfg(not(target_arch = "wasm32"))]
    #[test]
    fn python_reads_the_archive_back() {
        use std::process::Command;
        let big: Vec<u8> = (0..100_000u32).flat_map(|i| i.to_le_bytes()).collect();
        let files: [(&str, &[u8]); 4] = [
            ("users.json", b"{\"_id\":1}\n{\"_id\":2}\n"),
            ("empty.json", b""),
            ("caf\u{e9}.js", "// caf\u{e9}\n".as_bytes()),
            ("big.bin", &big),
        ];
        let zip = archive(&files);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.zip");
        std::fs::write(&path, &zip).unwrap();
        let script = [
            "import sys, zipfile, hashlib",
            "z = zipfile.ZipFile(sys.argv[1])",
            "assert z.testzip() is None",
            "for i in z.infolist():",
            "    assert i.compress_type == zipfile.ZIP_STORED",
            "    print(i.filename, i.file_size, hashlib.sha256(z.read(i)).hexdigest())",
        ]
        .join("\n");
        let out = Command::new("python3")
            .arg("-c")
            .arg(script)
            .arg(&path)
            .output()
            .expect("python3 runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let listed = String::from_utf8(out.stdout).unwrap();
        let lines: Vec<&str> = listed.lines().collect();
        assert_eq!(lines.len(), files.len());
        for ((name, bytes), line) in files.iter().zip(&lines) {
            let sha = python_sha256(bytes);
            assert_eq!(*line, format!("{name} {} {sha}", bytes.len()));
        }
    }

    #[cfg(not(target_arch = "wasm32"))]
    fn python_sha256(bytes: &[u8]) -> String {
        let mut c = std::process::Command::new("python3")
            .arg("-c")
            .arg("import sys, hashlib; print(hashlib.sha256(sys.stdin.buffer.read()).hexdigest(), end='')")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        c.stdin.take().unwrap().write_all(bytes).unwrap();
        String::from_utf8(c.wait_with_output().unwrap().stdout).unwrap()
    }

    #[test]
    fn an_empty_archive_is_just_the_end_record() {
        let zip = ZipWriter::new(1 << 20).finish().unwrap();
        assert_eq!(zip.len(), 22);
        assert_eq!(&zip[..4], &[0x50, 0x4b, 0x05, 0x06]);
    }

    #[test]
    fn the_same_files_give_the_same_bytes() {
        let files: [(&str, &[u8]); 2] = [("a.json", b"{}\n"), ("README.md", b"# x\n")];
        assert_eq!(archive(&files), archive(&files));
    }

    #[test]
    fn the_limit_stops_a_write_and_writing_needs_an_entry() {
        let mut z = ZipWriter::new(100);
        assert!(z.write_all(b"x").is_err(), "no entry started");
        z.start("a.json").unwrap();
        let e = z.write_all(&[b'x'; 200]).unwrap_err();
        assert!(
            e.to_string().contains("the archive would pass 1 MiB"),
            "{e}"
        );
        assert!(z.len() <= 100);
    }
}
