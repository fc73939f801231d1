//! Where the `local` provider's model files are: the default model under `data_dir`, or a
//! folder the config names. Plain path logic, shared by the loader and `check-config`.

use std::path::{Path, PathBuf};

use super::Config;

/// The model `embedding_provider: local` uses when `embedding_model` names no folder.
pub const DEFAULT_LOCAL_MODEL: &str = "all-MiniLM-L6-v2";

/// The files a local model folder must hold (the usual Hugging Face names).
pub const MODEL_FILES: [&str; 3] = ["config.json", "tokenizer.json", "model.safetensors"];

/// Where the default model's files are fetched from when `embedding_base_url` is empty.
pub const DEFAULT_DOWNLOAD_BASE: &str =
    "https://huggingface.co/sentence-transformers/all-MiniLM-L6-v2/resolve/main/";

/// Said when the config asks for `local` and this build has no local model support.
pub const NOT_BUILT: &str = "`local` needs a build with the `local-embeddings` cargo feature (on by default; this binary was built without it); rebuild with default features, or use openai or ollama";

/// The local model the config asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LocalModel {
    /// all-MiniLM-L6-v2 in `<data_dir>/models/all-MiniLM-L6-v2/`, fetched if missing.
    Default { dir: PathBuf },
    /// A folder of the user's, used as it is (never downloaded into).
    Folder { dir: PathBuf },
}

impl LocalModel {
    /// `embedding_model` empty or naming the default model means the default; anything else
    /// is a folder (made absolute against the config file's folder when the config loads).
    pub fn from_config(config: &Config) -> Self {
        let model = config.embedding_model.trim();
        if names_default_model(model) {
            LocalModel::Default {
                dir: config.data_dir.join("models").join(DEFAULT_LOCAL_MODEL),
            }
        } else {
            LocalModel::Folder {
                dir: PathBuf::from(model),
            }
        }
    }

    pub fn dir(&self) -> &Path {
        match self {
            LocalModel::Default { dir } | LocalModel::Folder { dir } => dir,
        }
    }

    /// The name stored beside every vector: the default model's, or the folder's own name.
    pub fn name(&self) -> String {
        match self {
            LocalModel::Default { .. } => DEFAULT_LOCAL_MODEL.to_string(),
            LocalModel::Folder { dir } => folder_name(dir),
        }
    }

    /// What to tell someone whose folder lacks files.
    pub fn hint(&self) -> String {
        match self {
            LocalModel::Default { .. } => "they are downloaded on start; or copy them there from a sentence-transformers/all-MiniLM-L6-v2 checkout".into(),
            LocalModel::Folder { .. } => "copy them there from the model's Hugging Face repository (a BERT sentence-transformers model), or leave embedding_model empty for the built-in all-MiniLM-L6-v2".into(),
        }
    }
}

/// True for `""`, `all-MiniLM-L6-v2` and `sentence-transformers/all-MiniLM-L6-v2`.
pub fn names_default_model(model: &str) -> bool {
    let model = model.trim();
    model.is_empty()
        || model == DEFAULT_LOCAL_MODEL
        || model == format!("sentence-transformers/{DEFAULT_LOCAL_MODEL}")
}

/// Which of [`MODEL_FILES`] `dir` lacks (all of them when it is not a folder).
pub fn missing_files(dir: &Path) -> Vec<&'static str> {
    MODEL_FILES
        .into_iter()
        .filter(|f| !dir.join(f).is_file())
        .collect()
}

/// The last component of a path, for a model's name (`/models/bge-small/` → `bge-small`).
fn folder_name(dir: &Path) -> String {
    let canonical = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    canonical
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| canonical.display().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(model: &str) -> Config {
        Config {
            data_dir: PathBuf::from("/srv/mneme"),
            embedding_model: model.into(),
            ..Config::default()
        }
    }

    #[test]
    fn empty_or_the_default_name_means_the_default_model_under_data_dir() {
        for name in [
            "",
            "  ",
            "all-MiniLM-L6-v2",
            "sentence-transformers/all-MiniLM-L6-v2",
        ] {
            let m = LocalModel::from_config(&config(name));
            assert_eq!(
                m,
                LocalModel::Default {
                    dir: PathBuf::from("/srv/mneme/models/all-MiniLM-L6-v2")
                },
                "{name:?}"
            );
            assert_eq!(m.name(), "all-MiniLM-L6-v2");
        }
    }

    #[test]
    fn anything_else_is_a_folder_named_after_itself() {
        let m = LocalModel::from_config(&config("/opt/models/bge-small-en/"));
        assert_eq!(m.dir(), Path::new("/opt/models/bge-small-en/"));
        assert_eq!(m.name(), "bge-small-en");
    }

    #[test]
    fn missing_files_lists_what_a_folder_lacks() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(missing_files(dir.path()), MODEL_FILES);
        std::fs::write(dir.path().join("config.json"), "{}").unwrap();
        std::fs::create_dir(dir.path().join("tokenizer.json")).unwrap(); // a folder is no file
        assert_eq!(
            missing_files(dir.path()),
            ["tokenizer.json", "model.safetensors"]
        );
        assert_eq!(missing_files(&dir.path().join("nope")), MODEL_FILES);
    }
}
