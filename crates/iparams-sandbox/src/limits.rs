//! What the sandbox allows a caller: the calls a minute of the account's plan, and the size of
//! a request body.

/// Request bodies above this are refused with 413.
pub const MAX_BODY_BYTES: usize = 1024 * 1024;

/// The account's plan, which sets the rate limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Plan {
    Free,
    Trial,
    Growth,
    Pro,
    #[default]
    Enterprise,
}

impl Plan {
    /// Calls a minute for an account of `employees` employees.
    pub fn calls_per_minute(self, employees: u64) -> u64 {
        match self {
            Plan::Free => 0,
            Plan::Trial => 10,
            Plan::Growth | Plan::Pro => employees.max(50),
            Plan::Enterprise => (2 * employees).max(100),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Plan::Free => "free",
            Plan::Trial => "trial",
            Plan::Growth => "growth",
            Plan::Pro => "pro",
            Plan::Enterprise => "enterprise",
        }
    }

    pub fn parse(name: &str) -> Option<Self> {
        [
            Plan::Free,
            Plan::Trial,
            Plan::Growth,
            Plan::Pro,
            Plan::Enterprise,
        ]
        .into_iter()
        .find(|plan| plan.name().eq_ignore_ascii_case(name))
    }
}
