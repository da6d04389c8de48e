//! What the server holds: the open documents, an overlay over the files on disk; the other
//! files of each project, indexed once and read again when they change on disk ([`context`]);
//! and the last run of each project ([`Project`]).
//!
//! A lint is one run per project (the folder of its `schema-lint.toml`, else its checkout):
//! the project's open documents are its named files, linted from their buffers, and every other
//! file of the project a folder walk would take is context, indexed and never reported on, as
//! in a partial run of `check` (see [`crate::engine::lint_loaded`] and [`Origin::Context`]).
//! A buffer wins over its file on disk, in its own project's run and in every other one.
//! Unlike `check`, the context is the whole project rather than the files whose text ties them
//! to the named ones: each file's index is kept between lints, so parsing is not what a lint
//! costs, and references resolve as in a run over the whole project.
//!
//! Opening, saving or closing a document, or new settings, build every project's run again
//! ([`State::lint`]: the walk, the settings and the configuration read again, the context from
//! the cache). An edit, or a context file changed on disk, changes the runs in place
//! ([`State::update`]): the changed file is parsed and indexed again on its own, and only the
//! open documents whose findings it can alter are linted again and published.

use super::context::{index_of, name_in, parse_context, Cache};
use super::options::{self, Options};
use super::position::{path_of, uri_of, Encoding};
use super::project::Files;
pub(crate) use super::project::Project;
use crate::settings::Settings;
use crate::syntax::source::{FileId, SourceFile};
use crate::workspace::discover::{meant_as_schema, other_files, Candidate, Configured};
use crate::workspace::{load_source, LintedFile, Origin};
use lsp_types::Uri;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

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

/// An open document found in the run of its project.
pub(crate) struct Located<'a> {
    /// The project.
    pub project: &'a mut Project,
    /// The document's file id in its run.
    pub file: FileId,
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
    cache: Cache,
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
            cache: Cache::default(),
        }
    }

    /// Forgets what was read of these files, so that the next lint reads them again.
    pub(crate) fn forget(&mut self, paths: &[PathBuf]) {
        self.cache.forget(paths);
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
        let draft = settings.default_draft;
        let mut run = Files {
            root: root.map(Path::to_path_buf),
            ..Files::default()
        };
        for uri in uris {
            let doc = &self.docs[uri];
            if walk_like && doc.path.as_deref().is_some_and(|p| !accept(p)) {
                continue;
            }
            let id = FileId(run.files.len());
            let file = self.open_file(uri, id, root);
            run.boms.push(file.file.bom);
            run.open.push(true);
            run.parts.push(index_of(&file, draft));
            run.files.push(file);
            run.docs.push((uri.clone(), id));
            run.uris.push(Some(uri.clone()));
        }
        if let Some(root) = root {
            let named: Vec<Candidate> = run
                .docs
                .iter()
                .filter_map(|(uri, _)| self.docs[uri].path.clone())
                .map(|path| Candidate {
                    path,
                    explicit: true,
                })
                .collect();
            let walk = Configured(settings.config.as_deref());
            let paths = other_files(root, &walk, settings.respect_ignore_files, &named);
            let skip = |p: &Path| overlay.contains_key(p);
            let cached = self.cache.files(root, &paths, &skip, draft);
            for (path, file) in paths.into_iter().zip(cached) {
                let buffer = overlay.get(&path);
                let id = FileId(run.files.len());
                let (mut file, part) = if let Some(uri) = buffer {
                    let text = self.docs[uri].text.to_string();
                    let Some(mut file) = parse_context(&path, root, text) else {
                        continue;
                    };
                    file.file.id = id;
                    let part = index_of(&file, draft);
                    (file, part)
                } else {
                    let Some((file, part)) = file else { continue };
                    (file, part.renumbered(id))
                };
                file.file.id = id;
                file.origin = Origin::Context;
                run.boms.push(buffer.is_some() && file.file.bom);
                run.open.push(buffer.is_some());
                run.uris.push(buffer.cloned().or_else(|| uri_of(&path)));
                run.parts.push(part);
                run.files.push(file);
            }
        }
        self.mark_schemas(&run.docs, &run.files);
        Project::new(settings, run)
    }

    /// An open document as file `id` of its project's run.
    fn open_file(&self, uri: &Uri, id: FileId, root: Option<&Path>) -> LintedFile {
        let doc = &self.docs[uri];
        let walk_like = self.options.walk_like();
        let name = match &doc.path {
            Some(path) => name_in(path, root),
            None => uri.as_str().to_owned(),
        };
        let reportable =
            !walk_like || doc.schema || meant_as_schema(Path::new(&name), doc.text.as_bytes());
        let file =
            SourceFile::from_string(id, name, doc.path.clone(), (*doc.text).clone(), !walk_like);
        load_source(file, reportable)
    }

    /// Remembers which open documents a lint found to hold a schema.
    fn mark_schemas(&mut self, docs: &[(Uri, FileId)], files: &[LintedFile]) {
        for (uri, id) in docs {
            if files[id.0].schema_kind().is_some() {
                if let Some(doc) = self.docs.get_mut(uri) {
                    doc.schema = true;
                }
            }
        }
    }

    /// Changes the runs in place after edits to the open documents `changed` and changes on disk
    /// to the files at `disk`, linting again only the open documents whose findings can change;
    /// returns them, each changed document among them. `None` when a change needs every run
    /// built again ([`State::lint`]): a file on disk that no run holds, or that is gone.
    pub(crate) fn update(&mut self, changed: &[Uri], disk: &[PathBuf]) -> Option<Vec<Uri>> {
        for path in disk {
            let known = self.projects.iter().any(|p| p.file_at(path).is_some());
            if !known || !path.is_file() {
                return None;
            }
        }
        let mut linted: Vec<Uri> = changed.to_vec();
        let mut projects = std::mem::take(&mut self.projects);
        for project in &mut projects {
            for uri in changed {
                let id = project.file_of(uri).or_else(|| {
                    let path = self.docs.get(uri)?.path.as_deref()?;
                    project.file_at(path)
                });
                let Some(id) = id else { continue };
                let Some((file, part)) = self.changed_file(project, id, uri) else {
                    continue;
                };
                add(&mut linted, project.replace(id, file, part));
            }
            for path in disk {
                let Some(id) = project.file_at(path).filter(|id| !project.open[id.0]) else {
                    continue;
                };
                let Some(root) = project.root.clone() else {
                    continue;
                };
                let draft = project.settings.default_draft;
                let (mut file, part) = match self.cache.reread(path, &root, draft) {
                    Some((file, part)) => (file, part.renumbered(id)),
                    None => (nothing_at(project, id), crate::index::RunIndex::default()),
                };
                file.file.id = id;
                file.origin = Origin::Context;
                add(&mut linted, project.replace(id, file, part));
            }
        }
        self.projects = projects;
        Some(linted)
    }

    /// The open document `uri`, edited, as file `id` of `project`'s run, with its own index.
    fn changed_file(
        &mut self,
        project: &Project,
        id: FileId,
        uri: &Uri,
    ) -> Option<(LintedFile, crate::index::RunIndex)> {
        let draft = project.settings.default_draft;
        let path = project.run.files[id.0].file.path.clone();
        let root = project.root.clone();
        let mut file = if project.file_of(uri) == Some(id) {
            let file = self.open_file(uri, id, root.as_deref());
            if let Some(doc) = self
                .docs
                .get_mut(uri)
                .filter(|_| file.schema_kind().is_some())
            {
                doc.schema = true;
            }
            file
        } else {
            let (path, root) = (path?, root?);
            let text = self.docs.get(uri)?.text.to_string();
            match parse_context(&path, &root, text) {
                Some(mut file) => {
                    file.origin = Origin::Context;
                    file
                }
                None => nothing_at(project, id),
            }
        };
        file.file.id = id;
        let part = index_of(&file, draft);
        Some((file, part))
    }
}

/// Adds to `uris` those of `more` it does not hold yet.
fn add(uris: &mut Vec<Uri>, more: Vec<Uri>) {
    for uri in more {
        if !uris.contains(&uri) {
            uris.push(uri);
        }
    }
}

/// A context file that holds nothing to lint any more, in the place of file `id`.
fn nothing_at(project: &Project, id: FileId) -> LintedFile {
    let old = &project.run.files[id.0];
    LintedFile {
        file: SourceFile {
            text: Arc::default(),
            ..old.file.clone()
        },
        state: crate::workspace::State::NotSchema { root: None },
        diagnostics: Vec::new(),
        origin: Origin::Context,
    }
}

/// The files of the workspace folders' URIs.
pub(crate) fn folders(uris: &[Uri]) -> Vec<PathBuf> {
    uris.iter().filter_map(path_of).collect()
}
