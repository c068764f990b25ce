//! `verify-credentials`: a domain and API key pair of the installation values, as the HR
//! service answers for it (`iparams-lint values --verify`).

use crate::diagnostic::Severity;
use crate::rules::framework::{Area, Examples, Rule};

/// Reported by the command's `values --verify`, which asks the HR service (the core does no
/// I/O): the rule has no check of its own here, only what every rule has for `explain`, the
/// configuration and SARIF.
pub static RULE: Rule = Rule {
    name: "verify-credentials",
    severity: Severity::Error,
    area: Area::Values,
    summary: "A domain and API key pair of the values is not accepted by the product's API, as the installation page checks it (`values --verify`)",
    docs: r#"Before it installs an app, the installation page checks each `domain` iparam with the
`api_key` iparam of the same product (`type_attributes.product`) by calling the product's API with
them, and marks both fields "Domain or API key is not matching" unless the API answers 200.
`iparams-lint values --verify` makes the same call for the HR service (`freshteam`): `GET
https://<domain>.freshteam.com/api/branches` with `Authorization: Bearer <key>`, or at `--hr-url`
(the sandbox, `iparams-lint hr-sandbox`). It reports:

- 401 (the key is not one of this account's) and any answer other than 200, 403 or 429, as errors;
- 403, a valid key whose user's role may not read branches (the page's check still fails), as an
  error;
- 429, the account's rate limit used up, as a warning: nothing could be said;
- no answer, as an error naming the URL;
- pairs of other products, as not verified (info).

This is the only check that uses the network, and only with `--verify`. The key is sent in the
`Authorization` header only, over HTTPS (plain HTTP only to a loopback address, or with
`--allow-http`), and never printed."#,
    bad: r#"{
  "hr_domain": "acme",
  "hr_api_key": "a key of another account"
}
"#,
    good: r#"{
  "hr_domain": "acme",
  "hr_api_key": "<the API key of an HR Partner of acme>"
}
"#,
    examples: Examples::Verified {
        definitions: r#"{
  "hr_domain": {"display_name": "HR domain", "type": "domain", "type_attributes": {"product": "freshteam"}, "required": true},
  "hr_api_key": {"display_name": "HR API key", "type": "api_key", "secure": true, "type_attributes": {"product": "freshteam"}, "required": true}
}
"#,
    },
    vendor: r#"The installation page makes the call when INSTALL is pressed; `fdk validate` does
not check values."#,
    fix: None,
    checks: &[],
};
