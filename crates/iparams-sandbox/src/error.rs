//! Error answers, all in the document's shape: `{"errors": [{"code", "message", "field"?}]}`.

use serde_json::{Value, json};

/// One failed request: its status and every error that caused it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    pub status: u16,
    pub errors: Vec<ErrorItem>,
    /// What went wrong inside (a database error): for the server's log, never for the answer.
    pub detail: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ErrorItem {
    pub code: &'static str,
    pub message: String,
    /// Only for 400: the attribute at fault.
    pub field: Option<String>,
}

impl ApiError {
    pub fn new(status: u16, code: &'static str, message: impl Into<String>) -> Self {
        Self {
            status,
            errors: vec![ErrorItem {
                code,
                message: message.into(),
                field: None,
            }],
            detail: None,
        }
    }

    /// 400 about one attribute.
    pub fn field(field: impl Into<String>, code: &'static str, message: impl Into<String>) -> Self {
        Self {
            status: 400,
            errors: vec![ErrorItem {
                code,
                message: message.into(),
                field: Some(field.into()),
            }],
            detail: None,
        }
    }

    /// 400 for every attribute at fault, or `Ok` when there is none.
    pub fn fields(items: Vec<ErrorItem>) -> Result<(), Self> {
        if items.is_empty() {
            Ok(())
        } else {
            Err(Self {
                status: 400,
                errors: items,
                detail: None,
            })
        }
    }

    pub fn unauthenticated() -> Self {
        Self::new(
            401,
            "unauthenticated",
            "Provide a valid API key as `Authorization: Bearer <key>`",
        )
    }

    pub fn forbidden(what: &str) -> Self {
        Self::new(
            403,
            "forbidden",
            format!("The caller's role does not allow {what}"),
        )
    }

    pub fn not_found(message: impl Into<String>) -> Self {
        Self::new(404, "not_found", message)
    }

    pub fn to_json(&self) -> Value {
        let errors: Vec<Value> = self
            .errors
            .iter()
            .map(|item| {
                let mut error = json!({"code": item.code, "message": item.message});
                if let (Some(field), Some(object)) = (&item.field, error.as_object_mut()) {
                    object.insert("field".into(), Value::String(field.clone()));
                }
                error
            })
            .collect();
        json!({ "errors": errors })
    }
}

impl ErrorItem {
    pub fn at(field: impl Into<String>, code: &'static str, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
            field: Some(field.into()),
        }
    }
}

impl ApiError {
    /// A request the server refused before reading it whole (408 and the like), in the
    /// document's error shape.
    pub fn refusal(status: u16, message: &str) -> iparams_serve::Outgoing {
        let code = match status {
            408 => "request_timeout",
            431 => "headers_too_large",
            503 => "unavailable",
            _ => "bad_request",
        };
        let mut message = message.to_owned();
        if let Some(first) = message.get(..1) {
            message.replace_range(..1, &first.to_uppercase());
        }
        iparams_serve::Outgoing {
            status,
            headers: vec![(
                "content-type".into(),
                "application/json; charset=utf-8".into(),
            )],
            body: Self::new(status, code, message).to_json().to_string(),
        }
    }

    /// 500 that says nothing of its cause (a database error may quote the SQL statement or the
    /// values in it); `detail` is kept for the server's log.
    pub fn internal(detail: String) -> Self {
        Self {
            detail: Some(detail),
            ..Self::new(
                500,
                "internal_error",
                "Internal error; the sandbox's log on standard error says more",
            )
        }
    }
}

impl From<rusqlite::Error> for ApiError {
    fn from(error: rusqlite::Error) -> Self {
        Self::internal(format!("database: {error}"))
    }
}

impl From<serde_json::Error> for ApiError {
    fn from(error: serde_json::Error) -> Self {
        Self::internal(format!("stored record: {error}"))
    }
}
