//! Which file of the app a finding is in: the model numbers the files it reads, and what
//! points into them (the installation page's scripts, templates, findings) holds the number.

/// Which file of the app a finding is in.
pub type FileId = usize;
