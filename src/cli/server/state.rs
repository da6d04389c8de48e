//! What the server holds: the open documents, an overlay over the files on disk; the other
//! files of each project, parsed once and read again when they change on disk; and the last
//! run of each project.
//!
//! A lint is one run per project (the folder of its `schema-lint.toml`, else its checkout):
//! the project's open documents are its named files, linted from their buffers, and every other
//! file of the project a folder walk would take is context, indexed and never reported on, as
//! in a partial run of `check` (see [`crate::engine::lint_loaded`] and [`Origin::Context`]).
//! A buffer wins over its file on disk, in its own project's run and in every other one.
//! Unlike `check`, the context is the whole project rather than the files whose text ties them
//! to the named ones: the parsed files are kept between lints, so parsing is not what a lint
//! costs, and references resolve as in a run over the whole project.

use super::options::{self, Options};
use super::position::{path_of, uri_of, Encoding, Lines};
use crate::engine::{lint_loaded, HeldRun};
use crate::settings::Settings;
use crate::syntax::source::{FileId, SourceFile};
use crate::workspace::discover::{meant_as_schema, other_files, Candidate, Configured};
use crate::workspace::load::display_name;
use crate::workspace::{load_source, LintedFile, Origin};
use lsp_types::{Uri, WorkspaceEdit};
use rayon::prelude::*;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::SystemTime;

/// An open document.
pub(crate) struct Document {
    /// The version the client gave its text.
    pub version: i32,
    /// The text, as the client holds it.
    pub text: Arc<String>,
    /// The file it is, for a `file://` URI.
    pub path: Option<PathBuf>,
    /// Whether a lint found it to hold a schema or a `tools/list` document since it was opened:
    /// then a parse error is reported even where a folder walk would pass over the file (the
    /// document is being edited, not found).
    pub schema: bool,
}

/// The last run of one project.
pub(crate) struct Project {
    /// The settings of the run.
    pub settings: Settings,
    /// The run: the open documents first, then the context; every text held, for the fixes.
    pub run: HeldRun,
    /// The open documents linted in the run, with their file ids.
    pub docs: Vec<(Uri, FileId)>,
    /// Per file of the run, the URI the client knows it by (the client's own for open documents).
    pub uris: Vec<Option<Uri>>,
    /// Per file of the run, whether the client's copy begins with a byte order mark.
    pub boms: Vec<bool>,
    /// Per file of the run, whether it is an open document (of this project or another).
    pub open: Vec<bool>,
    /// The code actions worked out since the run, by finding (or `None` for the fix-all).
    pub fixes: HashMap<Option<usize>, Option<WorkspaceEdit>>,
}

impl Project {
    /// The lines of a file of the run, as the client holds it.
    pub(crate) fn lines(&self, file: FileId, encoding: Encoding) -> Lines<'_> {
        Lines::new(
            &self.run.files[file.0].file.text,
            encoding,
            self.boms[file.0],
        )
    }

    /// The file id of an open document of the run.
    pub(crate) fn file_of(&self, uri: &Uri) -> Option<FileId> {
        self.docs.iter().find(|(u, _)| u == uri).map(|(_, id)| *id)
    }
}

/// An open document found in the run of its project.
pub(crate) struct Located<'a> {
    /// The project.
    pub project: &'a mut Project,
    /// The document's file id in its run.
    pub file: FileId,
}

/// A file of a project as last read from disk: its length and modification time, and the file
/// parsed (`None`: it holds no schema, or could not be read).
struct Cached {
    stamp: (u64, Option<SystemTime>),
    file: Option<LintedFile>,
}

/// Everything the server knows.
pub(crate) struct State {
    /// What columns count.
    pub encoding: Encoding,
    /// The editor's options.
    pub options: Options,
    /// The workspace folders, the projects of documents outside any checkout.
    pub workspace: Vec<PathBuf>,
    /// The open documents.
    pub docs: BTreeMap<Uri, Document>,
    /// The last run of each project with an open document.
    pub projects: Vec<Project>,
    cache: HashMap<PathBuf, Cached>,
}

/// How the open documents group into runs: by project, or alone (a document with no file).
#[derive(PartialEq, Eq, PartialOrd, Ord)]
enum Key {
    Project(PathBuf),
    Alone(String),
}

impl State {
    /// A server with no document open.
    pub(crate) fn new(encoding: Encoding, options: Options, workspace: Vec<PathBuf>) -> Self {
        Self {
            encoding,
            options,
            workspace,
            docs: BTreeMap::new(),
            projects: Vec::new(),
            cache: HashMap::new(),
        }
    }

    /// Forgets what was read of these files, so that the next lint reads them again.
    pub(crate) fn forget(&mut self, paths: &[PathBuf]) {
        for path in paths {
            self.cache.remove(path);
        }
    }

    /// The project whose run holds an open document, and its file id there.
    pub(crate) fn project_of(&mut self, uri: &Uri) -> Option<Located<'_>> {
        self.projects
            .iter_mut()
            .find_map(|project| project.file_of(uri).map(|file| Located { project, file }))
    }

    /// Lints every open document (the runs are kept in [`State::projects`]), and says what is
    /// wrong with the options or a configuration.
    pub(crate) fn lint(&mut self) -> Vec<String> {
        let mut problems = Vec::new();
        let mut groups: BTreeMap<Key, (Settings, Vec<Uri>)> = BTreeMap::new();
        for (uri, doc) in &self.docs {
            let options::ProjectSettings {
                settings,
                problems: found,
            } = options::settings_for(&self.options, doc.path.as_deref());
            problems.extend(found);
            let key = match &doc.path {
                Some(path) => Key::Project(options::project_root(path, &settings, &self.workspace)),
                None => Key::Alone(uri.as_str().to_owned()),
            };
            groups
                .entry(key)
                .or_insert_with(|| (settings, Vec::new()))
                .1
                .push(uri.clone());
        }
        let overlay: HashMap<PathBuf, Uri> = self
            .docs
            .iter()
            .filter_map(|(uri, d)| Some((d.path.clone()?, uri.clone())))
            .collect();
        self.projects = groups
            .into_iter()
            .map(|(key, (settings, uris))| {
                let root = match &key {
                    Key::Project(root) => Some(root.as_path()),
                    Key::Alone(_) => None,
                };
                self.build(root, settings, &uris, &overlay)
            })
            .collect();
        problems.sort();
        problems.dedup();
        problems
    }

    /// The run of one project: `uris` are its open documents; `overlay` names every open
    /// document by its file.
    fn build(
        &mut self,
        root: Option<&Path>,
        settings: Settings,
        uris: &[Uri],
        overlay: &HashMap<PathBuf, Uri>,
    ) -> Project {
        let walk_like = self.options.walk_like();
        let accept = |p: &Path| settings.config.as_ref().is_none_or(|c| c.accepts(p));
        let mut files = Vec::new();
        let mut docs = Vec::new();
        let mut file_uris = Vec::new();
        let mut boms = Vec::new();
        let mut open = Vec::new();
        for uri in uris {
            let doc = &self.docs[uri];
            if walk_like && doc.path.as_deref().is_some_and(|p| !accept(p)) {
                continue;
            }
            let id = FileId(files.len());
            let name = match &doc.path {
                Some(path) => name_in(path, root),
                None => uri.as_str().to_owned(),
            };
            let reportable =
                !walk_like || doc.schema || meant_as_schema(Path::new(&name), doc.text.as_bytes());
            let file = SourceFile::from_string(
                id,
                name,
                doc.path.clone(),
                (*doc.text).clone(),
                !walk_like,
            );
            boms.push(file.bom);
            open.push(true);
            files.push(load_source(file, reportable));
            docs.push((uri.clone(), id));
            file_uris.push(Some(uri.clone()));
        }
        if let Some(root) = root {
            let named: Vec<Candidate> = docs
                .iter()
                .filter_map(|(uri, _)| self.docs[uri].path.clone())
                .map(|path| Candidate {
                    path,
                    explicit: true,
                })
                .collect();
            let walk = Configured(settings.config.as_deref());
            let paths = other_files(root, &walk, settings.respect_ignore_files, &named);
            for (path, file) in self.context(root, paths, overlay) {
                let Some(mut file) = file else { continue };
                file.file.id = FileId(files.len());
                file.origin = Origin::Context;
                let buffer = overlay.get(&path);
                boms.push(buffer.is_some() && file.file.bom);
                open.push(buffer.is_some());
                file_uris.push(buffer.cloned().or_else(|| uri_of(&path)));
                files.push(file);
            }
        }
        for (uri, id) in &docs {
            if files[id.0].schema_kind().is_some() {
                if let Some(doc) = self.docs.get_mut(uri) {
                    doc.schema = true;
                }
            }
        }
        Project {
            run: lint_loaded(files, &settings),
            settings,
            docs,
            uris: file_uris,
            boms,
            open,
            fixes: HashMap::new(),
        }
    }

    /// The context files of a project: open documents from their buffers, the others from the
    /// cache while their length and modification time stay the same, else read and parsed again
    /// (in parallel).
    fn context(
        &mut self,
        root: &Path,
        paths: Vec<PathBuf>,
        overlay: &HashMap<PathBuf, Uri>,
    ) -> Vec<(PathBuf, Option<LintedFile>)> {
        let seen: HashSet<&PathBuf> = paths.iter().collect();
        self.cache
            .retain(|p, _| !p.starts_with(root) || seen.contains(p));
        let stamps: Vec<Option<(u64, Option<SystemTime>)>> = paths
            .iter()
            .map(|p| {
                let meta = std::fs::metadata(p).ok()?;
                Some((meta.len(), meta.modified().ok()))
            })
            .collect();
        let stale: Vec<(usize, &PathBuf)> = paths
            .iter()
            .enumerate()
            .filter(|(i, p)| {
                !overlay.contains_key(*p)
                    && stamps[*i].is_some()
                    && self
                        .cache
                        .get(*p)
                        .is_none_or(|c| Some(c.stamp) != stamps[*i])
            })
            .collect();
        let loaded: Vec<(usize, Option<LintedFile>)> = crate::workspace::pool::run(|| {
            stale
                .par_iter()
                .map(|&(i, path)| {
                    let bound = crate::syntax::read::MAX_FILE;
                    let text = crate::syntax::read::read_file_bounded(path, bound, true)
                        .ok()
                        .and_then(|b| String::from_utf8(b).ok());
                    (i, text.and_then(|t| parse_context(path, root, t)))
                })
                .collect()
        });
        for (i, file) in loaded {
            if let Some(stamp) = stamps[i] {
                self.cache.insert(paths[i].clone(), Cached { stamp, file });
            }
        }
        paths
            .into_iter()
            .map(|path| {
                let file = match overlay.get(&path) {
                    Some(uri) => {
                        let text = self.docs[uri].text.to_string();
                        parse_context(&path, root, text)
                    }
                    None => self.cache.get(&path).and_then(|c| c.file.clone()),
                };
                (path, file)
            })
            .collect()
    }
}

/// A context file parsed, when it holds a schema or a `tools/list` document.
fn parse_context(path: &Path, root: &Path, text: String) -> Option<LintedFile> {
    let name = name_in(path, Some(root));
    let source = SourceFile::from_string(FileId(0), name, Some(path.to_path_buf()), text, false);
    let file = load_source(source, false);
    file.root()?;
    file.schema_kind()?;
    Some(file)
}

/// How findings name a file: relative to its project when it lies inside it.
fn name_in(path: &Path, root: Option<&Path>) -> String {
    let relative = root.and_then(|r| path.strip_prefix(r).ok());
    display_name(relative.unwrap_or(path))
}

/// The files of the workspace folders' URIs.
pub(crate) fn folders(uris: &[Uri]) -> Vec<PathBuf> {
    uris.iter().filter_map(path_of).collect()
}
