//! The last run of one project, kept between lints and changed one file at a time: a changed
//! file is parsed and indexed again on its own, the run's index joined again from every file's
//! index, and only the open documents whose findings the change can alter are linted again
//! ([`Project::replace`]).

use super::position::{line_starts, Encoding, Lines};
use crate::engine::{relint, Run};
use crate::index::RunIndex;
use crate::settings::Settings;
use crate::syntax::source::Columns;
use crate::syntax::source::FileId;
use crate::workspace::LintedFile;
use lsp_types::{Uri, WorkspaceEdit};
use std::collections::{BTreeSet, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// Where the lines of a text start, and the address of the text they were worked out for.
type Starts = (usize, Arc<[usize]>, Arc<Columns>);

/// The last run of one project.
pub(crate) struct Project {
    /// The settings of the run.
    pub settings: Settings,
    /// The folder of the project, which files are named from (`None`: a document with no
    /// file, linted on its own).
    pub root: Option<PathBuf>,
    /// The run: the open documents first, then the context. Context files read from disk are
    /// let go once indexed (read again when a rule or a fix needs them); the open documents,
    /// and the buffers of other projects' documents, are held.
    pub run: Run,
    /// Per file of the run, its own index, which the run's index joins.
    parts: Vec<RunIndex>,
    /// The open documents linted in the run, with their file ids.
    pub docs: Vec<(Uri, FileId)>,
    /// Per file of the run, the URI the client knows it by (the client's own for open documents).
    pub uris: Vec<Option<Uri>>,
    /// Per file of the run, whether the client's copy begins with a byte order mark.
    pub boms: Vec<bool>,
    /// Per file of the run, whether it is an open document (of this project or another).
    pub open: Vec<bool>,
    /// The file id of each file of the run that has a path.
    by_path: HashMap<PathBuf, FileId>,
    /// The code actions worked out since the run, by document and finding (`None`: the
    /// document's fix-all).
    pub fixes: HashMap<(FileId, Option<usize>), Option<WorkspaceEdit>>,
    /// Where the lines of a file's text start, and its characters before an offset, by file,
    /// for the text they were worked out for (its address): worked out once per text, not once
    /// per finding (once per finding, 20,000 findings on one line took 89 s to publish).
    lines: Mutex<HashMap<FileId, Starts>>,
}

/// The files of a project's run, before it is linted: each with its own index and what the
/// client knows of it.
#[derive(Default)]
#[allow(
    clippy::struct_field_names,
    reason = "the fields are those of Project, and `files` those of a run"
)]
pub(crate) struct Files {
    pub root: Option<PathBuf>,
    pub files: Vec<LintedFile>,
    pub parts: Vec<RunIndex>,
    pub docs: Vec<(Uri, FileId)>,
    pub uris: Vec<Option<Uri>>,
    pub boms: Vec<bool>,
    pub open: Vec<bool>,
}

impl Project {
    /// Indexes and lints `files`.
    pub(crate) fn new(settings: Settings, files: Files) -> Self {
        let Files {
            root,
            files,
            parts,
            docs,
            uris,
            boms,
            open,
        } = files;
        let index = RunIndex::merged(&parts);
        let run = Run {
            files,
            index,
            notes: Vec::new(),
        };
        let run = relint(run, &settings, &|_| true);
        let by_path = run
            .files
            .iter()
            .filter_map(|f| Some((f.file.path.clone()?, f.file.id)))
            .collect();
        Self {
            settings,
            root,
            run,
            parts,
            docs,
            uris,
            boms,
            open,
            by_path,
            fixes: HashMap::new(),
            lines: Mutex::new(HashMap::new()),
        }
    }

    /// The lines of a file of the run, as the client holds it.
    pub(crate) fn lines(&self, file: FileId, encoding: Encoding) -> Lines<'_> {
        let text = &self.run.files[file.0].file.text;
        let address = Arc::as_ptr(text) as usize;
        let (starts, columns) = match self.lines.lock() {
            Ok(mut known) => match known.get(&file) {
                Some((at, starts, columns)) if *at == address => {
                    (Arc::clone(starts), Arc::clone(columns))
                }
                _ => {
                    let (starts, columns) = (line_starts(text), Arc::new(Columns::default()));
                    known.insert(file, (address, Arc::clone(&starts), Arc::clone(&columns)));
                    (starts, columns)
                }
            },
            Err(_) => (line_starts(text), Arc::new(Columns::default())),
        };
        Lines::with_starts(text, starts, columns, encoding, self.boms[file.0])
    }

    /// The file id of an open document of the run.
    pub(crate) fn file_of(&self, uri: &Uri) -> Option<FileId> {
        self.docs.iter().find(|(u, _)| u == uri).map(|(_, id)| *id)
    }

    /// The file id of the file of the run at `path`.
    pub(crate) fn file_at(&self, path: &Path) -> Option<FileId> {
        self.by_path.get(path).copied()
    }

    /// Puts `file` (with `part`, its own index) in the place of file `id`, joins the run's
    /// index again, and lints again the open documents whose findings the change can alter: the
    /// file itself, and those a reference ties to it before or after the change (see
    /// [`RunIndex::tied_to`]); every one when the file no longer declares the same resources
    /// and anchors (a reference elsewhere may now find it, or no longer). Returns the open
    /// documents linted again.
    pub(crate) fn replace(&mut self, id: FileId, file: LintedFile, part: RunIndex) -> Vec<Uri> {
        let everything = !self.parts[id.0].same_declarations(&part);
        let changed = BTreeSet::from([id]);
        let mut tied = self.run.index.tied_to(&changed);
        self.parts[id.0] = part;
        let mut run = std::mem::take(&mut self.run);
        debug_assert_eq!(file.file.id, id);
        self.boms[id.0] = self.open[id.0] && file.file.bom;
        run.files[id.0] = file;
        run.index = RunIndex::merged(&self.parts);
        tied.extend(run.index.tied_to(&changed));
        tied.insert(id);
        let again = |f: FileId| everything || tied.contains(&f);
        self.run = relint(run, &self.settings, &again);
        self.fixes.clear();
        let linted: HashSet<FileId> = self
            .docs
            .iter()
            .map(|(_, f)| *f)
            .filter(|f| again(*f))
            .collect();
        self.docs
            .iter()
            .filter(|(_, f)| linted.contains(f))
            .map(|(uri, _)| uri.clone())
            .collect()
    }
}
