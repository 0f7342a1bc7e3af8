//! The inputs of `squillion infer` beyond mongoexport files: mongodump `.bson` files (with the
//! `.metadata.json` beside them) and directories of them, archives (`--archive`), each of them
//! gzipped or not (`--gzip`), and SQL schemas (`.sql`), which `crate::infer::dump`,
//! `crate::infer::archive` and `crate::infer::sql` read. A file's kind comes from its name
//! ([`classify`]); an archive is also told by its first bytes, whatever its name.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context};
use serde::Serialize;

use crate::infer::input::{classify, read_text, Kind};
use crate::infer::sql::{infer_sql, SqlError, SqlInferred, SqlInput, SqlReport};

/// One input file and how it is read.
#[derive(Debug, Clone, PartialEq)]
pub enum Input {
    /// mongoexport output (Extended JSON lines or an array) into a collection.
    Json {
        /// The file.
        path: PathBuf,
        /// The collection its documents go to.
        collection: String,
    },
    /// A mongodump `.bson` file into a collection, with its `.metadata.json` when present.
    Bson {
        /// The file.
        path: PathBuf,
        /// The collection its documents go to.
        collection: String,
        /// `<collection>.metadata.json` beside it, when it exists.
        metadata: Option<PathBuf>,
    },
    /// A mongodump archive: its collections are named inside it.
    Archive {
        /// The file.
        path: PathBuf,
    },
    /// A SQL schema.
    Sql {
        /// The file.
        path: PathBuf,
    },
}

impl Input {
    /// Returns whether this input is standard input (`-`).
    pub fn is_stdin(&self) -> bool {
        matches!(self, Input::Json { path, .. } if path == Path::new(super::STDIN))
    }
}

/// Returns the inputs named by `FILE[:collection]` arguments: `.sql` files (every file with
/// `sql`) as SQL, `.bson` files and directories of them (a mongodump `dump/<db>/`) as
/// mongodump output, the rest as mongoexport output. SQL and documents are not mixed.
pub fn expand(specs: &[String], sql: bool) -> anyhow::Result<Vec<Input>> {
    let mut inputs = Vec::new();
    for spec in specs {
        let plain = Path::new(spec);
        let stdin = spec == super::STDIN || spec.starts_with("-:");
        if stdin && sql {
            bail!("standard input (-) is read as documents: give a SQL schema as a .sql file");
        }
        if !stdin && (sql || (kind_of(plain) == Kind::Sql && !plain.is_dir())) {
            inputs.push(Input::Sql {
                path: plain.to_path_buf(),
            });
            continue;
        }
        if plain.is_dir() {
            inputs.extend(directory(plain)?);
            continue;
        }
        let (path, collection) = super::split_spec(spec)?;
        if path.is_dir() {
            bail!(
                "{}: a directory's collections are named after its .bson files: drop \
                 :{collection}",
                path.display()
            );
        }
        let kind = kind_of(path);
        if kind == Kind::Bson {
            inputs.push(Input::Bson {
                path: path.to_path_buf(),
                metadata: metadata_beside(path),
                collection,
            });
        } else if kind == Kind::Archive {
            if spec.as_str() != path.to_string_lossy() {
                bail!(
                    "{}: an archive's collections are named inside it: drop :{collection}",
                    path.display()
                );
            }
            inputs.push(Input::Archive {
                path: path.to_path_buf(),
            });
        } else {
            inputs.push(Input::Json {
                path: path.to_path_buf(),
                collection,
            });
        }
    }
    let sql_inputs = inputs
        .iter()
        .filter(|i| matches!(i, Input::Sql { .. }))
        .count();
    if sql_inputs > 0 && sql_inputs < inputs.len() {
        bail!("a SQL schema is inferred on its own: give .sql files, or documents, not both");
    }
    Ok(inputs)
}

/// Returns the `.bson` files (gzipped or not) of a mongodump database directory, by name (but
/// `system.*` collections, which are MongoDB's own), each with the metadata beside it.
fn directory(dir: &Path) -> anyhow::Result<Vec<Input>> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("cannot list {}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    paths.sort();
    let mut inputs = Vec::new();
    for path in &paths {
        let Some(name) = path.file_name().and_then(|s| s.to_str()) else {
            continue;
        };
        let (kind, stem) = classify(name);
        if kind != Kind::Bson || stem.starts_with("system.") || path.is_dir() {
            continue;
        }
        inputs.push(Input::Bson {
            path: path.clone(),
            collection: stem,
            metadata: metadata_beside(path),
        });
    }
    if inputs.is_empty() {
        let nested = paths.iter().any(|p| p.is_dir());
        bail!(
            "{}: no .bson file in this directory{}",
            dir.display(),
            if nested {
                " (a mongodump output directory holds one directory per database: name that one)"
            } else {
                ""
            }
        );
    }
    Ok(inputs)
}

/// Returns `<stem>.metadata.json` (or `.metadata.json.gz`) beside a `.bson` (`.bson.gz`)
/// file, when it exists.
fn metadata_beside(path: &Path) -> Option<PathBuf> {
    let (_, stem) = classify(path.file_name()?.to_str()?);
    ["json", "json.gz"]
        .iter()
        .map(|ext| path.with_file_name(format!("{stem}.metadata.{ext}")))
        .find(|meta| meta.is_file())
}

/// Returns the kind of input `path` names ([`classify`]).
fn kind_of(path: &Path) -> Kind {
    path.file_name()
        .and_then(|n| n.to_str())
        .map_or(Kind::Json, |n| classify(n).0)
}

/// Returns the text of a `.metadata.json` or `.sql` file, decompressed when it is gzip.
pub fn read_file_text(path: &Path) -> anyhow::Result<String> {
    let file = File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
    read_text(BufReader::new(file)).with_context(|| format!("cannot read {}", path.display()))
}

/// What `--json` prints for a SQL schema: the report, and the model unless `--out` took it.
#[derive(Serialize)]
struct SqlJson<'a> {
    /// What was found and assumed.
    report: &'a SqlReport,
    /// The model, its whole numbers as integers (as the model text writes them).
    #[serde(skip_serializing_if = "Option::is_none")]
    model: Option<serde_json::Value>,
}

/// Infers a model from SQL files and writes it as `squillion infer` writes a model from
/// documents; exit 1 when no table was created, 2 on a parse error (nothing written).
pub fn run_sql(
    paths: &[PathBuf],
    dialect: Option<&str>,
    counts: &BTreeMap<String, f64>,
    out: Option<&Path>,
    json: bool,
) -> anyhow::Result<ExitCode> {
    let mut texts = Vec::new();
    for p in paths {
        let text = read_file_text(p)?;
        texts.push((p.display().to_string(), text));
    }
    let inputs: Vec<SqlInput<'_>> = texts
        .iter()
        .map(|(source, text)| SqlInput { source, text })
        .collect();
    let inferred = match infer_sql(&inputs, dialect, counts) {
        Ok(i) => i,
        Err(SqlError::NoTables) => {
            eprintln!("squillion infer: no CREATE TABLE statement: nothing inferred");
            return Ok(ExitCode::from(1));
        }
        Err(e) => return Err(e.into()),
    };
    for s in &inferred.report.skipped {
        if let Some(why) = &s.error {
            let at = if why.starts_with("line ") {
                String::new()
            } else {
                format!("line {}: ", s.line)
            };
            eprintln!("squillion infer: {}: {at}{why} (skipped)", s.source);
        }
    }
    let model_json = crate::infer::tidy::model_text(&inferred.model)?;
    if let Some(out) = out {
        std::fs::write(out, format!("{model_json}\n"))
            .with_context(|| format!("cannot write {}", out.display()))?;
    }
    let stdout = io::stdout();
    let mut stdout = stdout.lock();
    if json {
        let v = SqlJson {
            report: &inferred.report,
            model: match out {
                None => Some(crate::infer::tidy::model_value(&inferred.model)?),
                Some(_) => None,
            },
        };
        writeln!(stdout, "{}", serde_json::to_string_pretty(&v)?)?;
    } else if out.is_some() {
        write!(stdout, "{}", sql_summary(&inferred))?;
    } else {
        writeln!(stdout, "{model_json}")?;
        eprint!("{}", sql_summary(&inferred));
    }
    Ok(ExitCode::SUCCESS)
}

/// Returns the text summary of a SQL schema: per table what it became and per column its
/// field, type and assumptions; the relationships; the indexes; the statements skipped.
fn sql_summary(inferred: &SqlInferred) -> String {
    let r = &inferred.report;
    let mut s = String::new();
    for t in &r.tables {
        let became = if t.became == "entity" {
            "entity"
        } else {
            "junction table: a many-to-many relationship"
        };
        s.push_str(&format!(
            "{}: {became}, count {}, {} columns\n",
            t.name,
            crate::human::thousands(t.count as u64),
            t.columns.len()
        ));
        for c in &t.columns {
            let target = match (&c.field, &c.references) {
                (Some(f), _) => format!("{f} {}", c.ty.alias()),
                (None, Some(parent)) => format!("reference to {parent}"),
                (None, None) => "dropped".to_string(),
            };
            let mut line = format!("  {}\t{}\t→ {target}", c.name, c.sql_type);
            if c.presence < 1.0 && c.field.is_some() {
                line.push_str(&format!("\tpresent {:.0}%", c.presence * 100.0));
            }
            for a in &c.assumed {
                line.push_str(&format!("\tassumed: {a}"));
            }
            s.push_str(&line);
            s.push('\n');
        }
        for a in &t.assumed {
            s.push_str(&format!("  assumed: {a}\n"));
        }
        if !t.link_attributes.is_empty() {
            s.push_str(&format!(
                "  link attributes not carried into the model: {}\n",
                t.link_attributes.join(", ")
            ));
        }
    }
    for rel in &r.relationships {
        s.push_str(&format!("relationship {}\n", rel.describe()));
    }
    for i in &r.indexes {
        s.push_str(&format!(
            "index on {} ({}){}: {} (reported, not in the model)\n",
            i.table,
            i.columns.join(", "),
            if i.unique { " unique" } else { "" },
            i.origin
        ));
    }
    for u in &r.workload {
        s.push_str(&format!(
            "{}\n",
            crate::infer::starter::line(u).render(crate::lang::Lang::En)
        ));
    }
    s.push_str(&format!(
        "{} skipped\n",
        crate::human::count(r.skipped_statements, "statement", "statements")
    ));
    s
}
