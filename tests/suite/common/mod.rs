//! Helpers shared by the test modules.
pub mod design_override;
pub mod dump_files;
pub mod fixed_seed;
pub mod infer_json;
pub mod pymongo;
pub mod squillion_cli;
