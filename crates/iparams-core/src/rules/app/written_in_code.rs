//! What the rules about secrets in code share: each secret the app's scripts write, with how
//! its file is written.

use crate::app::{AppModel, Authored, CodeSecret, FileId, authored};

/// Each secret written in a script of the app (the installation page's, the front end's and
/// the serverless code's, a page's inline scripts included), with its file and how that file is
/// written; none of a third party's files.
pub(super) fn secrets_in_code<'m>(
    model: &'m AppModel<'_>,
) -> impl Iterator<Item = (FileId, Authored, &'m CodeSecret)> {
    model.scripts().flat_map(move |(file, _, facts)| {
        let written = match facts.code_secrets.is_empty() {
            true => Authored::Own,
            false => authored(&model.relatives[file], model.sources[file].text()),
        };
        facts
            .code_secrets
            .iter()
            .filter(move |_| written != Authored::ThirdParty)
            .map(move |secret| (file, written, secret))
    })
}

/// Where a secret is, as a message says it.
pub(super) fn place(secret: &CodeSecret) -> &'static str {
    if secret.in_comment {
        "a comment"
    } else {
        "a string"
    }
}
