//! Where an app's iparams are declared: config/iparams.json, from which the platform generates
//! the installation page, or the `postConfigs` of the app's own page, config/iparams.html.
//! Decided once, from the files the app has, for the engine, the rules and every front-end.

/// The path of iparams.json inside an app.
pub const IPARAMS_JSON: &str = "config/iparams.json";

/// The path of a custom installation page inside an app.
pub const IPARAMS_HTML: &str = "config/iparams.html";

/// Where an app's iparams come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IparamsSource {
    /// config/iparams.json, from which the installation page is generated.
    Json,
    /// config/iparams.html, the app's own installation page: its `postConfigs` returns them.
    Page,
    /// Both files, which the platform refuses (`iparams-html-and-json`): iparams.json declares
    /// them, and the page is not read as the installation page.
    Both,
    /// Neither file.
    Neither,
}

impl IparamsSource {
    /// The source of an app that has iparams.json or not, and config/iparams.html or not.
    pub fn of(has_json: bool, has_page: bool) -> Self {
        match (has_json, has_page) {
            (true, false) => Self::Json,
            (false, true) => Self::Page,
            (true, true) => Self::Both,
            (false, false) => Self::Neither,
        }
    }

    /// The iparams come from the app's own page.
    pub fn is_page(self) -> bool {
        self == Self::Page
    }

    /// The file that declares them, by its path inside the app: iparams.json unless the app
    /// has only its own page.
    pub fn file(self) -> &'static str {
        match self {
            Self::Page => IPARAMS_HTML,
            Self::Json | Self::Both | Self::Neither => IPARAMS_JSON,
        }
    }

    /// How messages name what declares the iparams.
    pub fn described(self) -> &'static str {
        match self {
            Self::Page => IPARAMS_HTML,
            Self::Json | Self::Both | Self::Neither => "iparams.json",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iparams_json_wins_unless_the_page_is_alone() {
        assert_eq!(IparamsSource::of(true, false).file(), IPARAMS_JSON);
        assert_eq!(IparamsSource::of(true, true).file(), IPARAMS_JSON);
        assert_eq!(IparamsSource::of(false, false).file(), IPARAMS_JSON);
        assert_eq!(IparamsSource::of(false, true).file(), IPARAMS_HTML);
        assert!(IparamsSource::of(false, true).is_page());
        assert!(!IparamsSource::of(true, true).is_page());
    }
}
