//! `squillion advise`: the best design for a model's workload, searched, verified on the
//! engine and explained (docs/advisor.md).

use std::io::Write as _;
use std::process::ExitCode;

use clap::Args;

use super::eval::ModelSource;
use crate::advise::cost::CostModel;
use crate::advise::text::report_in;
use crate::advise::{advise, parse_horizon, AdviseOptions, Weights};
use crate::lang::Lang;

/// The long help of `squillion advise`.
pub const LONG_ABOUT: &str =
    "Search every design of a model for its workload and recommend one.\n\n\
    Every candidate (per relationship each valid strategy with parameters drawn from the \
    model, application or $lookup joins, the field patterns that apply) is screened without \
    the engine: read round trips/s, documents written/s and storage at full scale, and \
    whether a document breaks 16 MiB within the horizon (infeasible designs are never \
    recommended). The candidates are scored with the weights (log ratios to the normalized \
    design, lower is better) and the Pareto front over the three is found; the best --top \
    designs and the front are then run on the engine, and any figure where the screen and the \
    engine disagree beyond the screen's tolerance is reported. Among the verified designs the \
    cost model decides: every figure the engine measures (round trips, keys and documents \
    examined, bytes returned, documents, bytes and index keys written) priced in \
    microseconds (--cost), reads and writes added, storage weighed beside them; the report \
    gives each design's cost terms and the read/write ratio and storage weight at which the \
    pick would flip. The recommendation comes with the numbers that decided each \
    relationship against its runner-up. A sub-document keyed by a field whose values keep \
    coming (values_open) with one index per key is infeasible.\n\n\
    Exit codes: 0 a design is recommended, 1 no design is feasible, 2 a usage or input error.";

/// Examples shown after the help.
pub const EXAMPLES: &str = "Examples:\n  squillion advise --preset social-graph\n  squillion advise model.json --weights reads=1,writes=1,storage=0 --top 5\n  squillion advise --preset host-logs --horizon 1y --json\n\nReference: docs/advisor.md, docs/cli.md";

/// Arguments of `squillion advise`.
#[derive(Debug, Args)]
pub struct AdviseArgs {
    /// The model file or preset.
    #[command(flatten)]
    pub source: ModelSource,
    /// Weights of the score: `reads=3,writes=2,storage=1` (the default; any subset).
    #[arg(long, value_name = "W")]
    pub weights: Option<String>,
    /// No document may break 16 MiB within this much of the model's growth: `5y` (default),
    /// `365d`.
    #[arg(long, value_name = "H", default_value = "5y")]
    pub horizon: String,
    /// The cost model's constants (µs per round trip, key and document examined, byte
    /// returned, document, byte and index key written) as a JSON object; any subset, the
    /// others keep their defaults (docs/advisor.md).
    #[arg(long, value_name = "FILE")]
    pub cost: Option<std::path::PathBuf>,
    /// Designs listed and verified on the engine, best first.
    #[arg(long, value_name = "N", default_value_t = 3)]
    pub top: usize,
    /// Print the advice as JSON (docs/cli.md).
    #[arg(long)]
    pub json: bool,
    /// The language of the report: en or zh-CN; default: LC_ALL, LC_MESSAGES or LANG,
    /// English unless Chinese. --json is the same in every language.
    #[arg(long, value_name = "LANG", value_parser = super::lang::parse)]
    pub lang: Option<Lang>,
}

impl AdviseArgs {
    /// Searches, verifies and prints the advice; exit 1 when no design is feasible.
    pub fn run(self) -> anyhow::Result<ExitCode> {
        let Ok(model) = self.source.read(super::lang::or_env(None), self.json) else {
            return Ok(ExitCode::from(2));
        };
        let weights = match self.weights.as_deref().map(Weights::parse).transpose() {
            Ok(w) => w.unwrap_or_default(),
            Err(e) => {
                eprintln!("squillion: {e}");
                return Ok(ExitCode::from(2));
            }
        };
        let horizon_days = match parse_horizon(&model, &self.horizon) {
            Ok(d) => d,
            Err(e) => {
                eprintln!("squillion: {e}");
                return Ok(ExitCode::from(2));
            }
        };
        let cost = match &self.cost {
            None => CostModel::default(),
            Some(path) => {
                let parsed = std::fs::read_to_string(path)
                    .map_err(|e| e.to_string())
                    .and_then(|t| CostModel::parse(&t).map_err(|e| e.to_string()));
                match parsed {
                    Ok(c) => c,
                    Err(e) => {
                        eprintln!("squillion: {}: {e}", path.display());
                        return Ok(ExitCode::from(2));
                    }
                }
            }
        };
        let opts = AdviseOptions {
            weights,
            horizon_days: Some(horizon_days),
            top: self.top.max(1),
            verify: true,
            cost,
        };
        let a = advise(&model, &opts);
        if self.json {
            writeln!(std::io::stdout(), "{}", serde_json::to_string_pretty(&a)?)?;
        } else {
            let lang = super::lang::or_env(self.lang);
            write!(std::io::stdout(), "{}", report_in(&a, lang))?;
        }
        Ok(ExitCode::from(u8::from(a.recommended.is_none())))
    }
}
