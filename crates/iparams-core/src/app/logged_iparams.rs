//! Iparams that serverless code writes to its logs: `console.log(args.iparams)`, a key's value
//! in a logged template literal. The platform keeps the logs where the app's developers read
//! them, so a secure iparam logged there is no longer secret.

use oxc_ast::ast::{
    Argument, CallExpression, ComputedMemberExpression, Expression, StaticMemberExpression,
    UnaryOperator,
};
use oxc_ast_visit::{Visit, walk};
use oxc_span::GetSpan;

use super::literals::literal_string;
use crate::span::Span;

/// One iparam, or all of them, in a logged argument.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoggedIparam {
    /// The key, or `None` when the whole object is logged.
    pub key: Option<String>,
    pub span: Span,
}

/// The methods of `console` that write their arguments out.
const LOGGING: [&str; 8] = [
    "log", "info", "warn", "error", "debug", "trace", "dir", "table",
];

/// The iparams a call writes to the logs, when it is `console.log(…)` or a sibling.
pub(crate) fn logged_iparams(
    call: &CallExpression<'_>,
    shift: &dyn Fn(oxc_span::Span) -> Span,
) -> Vec<LoggedIparam> {
    let Some(member) = call.callee.get_inner_expression().as_member_expression() else {
        return Vec::new();
    };
    let console = matches!(member.object().get_inner_expression(), Expression::Identifier(id) if id.name == "console");
    if !console
        || !member
            .static_property_name()
            .is_some_and(|name| LOGGING.contains(&name))
    {
        return Vec::new();
    }
    let mut found = Logged {
        found: Vec::new(),
        shift,
    };
    for argument in &call.arguments {
        if let Some(expression) = argument.as_expression() {
            found.visit_expression(expression);
        } else if let Argument::SpreadElement(spread) = argument {
            found.visit_expression(&spread.argument);
        }
    }
    found.found
}

/// `<anything>.iparams`, or a variable named `iparams`.
fn is_iparams(expression: &Expression<'_>) -> bool {
    match expression.get_inner_expression() {
        Expression::StaticMemberExpression(member) => member.property.name == "iparams",
        Expression::Identifier(id) => id.name == "iparams",
        _ => false,
    }
}

/// Whether a call's result tells nothing of its argument's value: `Object.keys(…)`,
/// `Boolean(…)`.
fn tells_nothing(call: &CallExpression<'_>) -> bool {
    match call.callee.get_inner_expression() {
        Expression::Identifier(id) => id.name == "Boolean",
        callee => callee.as_member_expression().is_some_and(|member| {
            matches!(member.object(), Expression::Identifier(id) if id.name == "Object")
                && member.static_property_name() == Some("keys")
        }),
    }
}

struct Logged<'s> {
    found: Vec<LoggedIparam>,
    shift: &'s dyn Fn(oxc_span::Span) -> Span,
}

impl Logged<'_> {
    fn push(&mut self, key: Option<&str>, span: oxc_span::Span) {
        self.found.push(LoggedIparam {
            key: key.map(str::to_owned),
            span: (self.shift)(span),
        });
    }
}

impl<'a> Visit<'a> for Logged<'_> {
    fn visit_expression(&mut self, expression: &Expression<'a>) {
        match expression {
            // What is logged of these is not the value: its keys, its type, whether it is set.
            Expression::CallExpression(call) if tells_nothing(call) => {}
            Expression::UnaryExpression(unary)
                if matches!(
                    unary.operator,
                    UnaryOperator::Typeof | UnaryOperator::LogicalNot
                ) => {}
            Expression::BinaryExpression(binary) if binary.operator.is_equality() => {}
            Expression::ConditionalExpression(conditional) => {
                self.visit_expression(&conditional.consequent);
                self.visit_expression(&conditional.alternate);
            }
            _ if is_iparams(expression) => self.push(None, expression.span()),
            _ => walk::walk_expression(self, expression),
        }
    }

    fn visit_static_member_expression(&mut self, member: &StaticMemberExpression<'a>) {
        // A value's length is not the value.
        if member.property.name == "length" {
            return;
        }
        if is_iparams(&member.object) {
            self.push(Some(&member.property.name), member.span);
        } else {
            walk::walk_static_member_expression(self, member);
        }
    }

    fn visit_computed_member_expression(&mut self, member: &ComputedMemberExpression<'a>) {
        if is_iparams(&member.object) {
            // A key that is not written out may be any of them.
            let key = literal_string(&member.expression).map(|(key, _)| key);
            self.push(key, member.span);
        } else {
            walk::walk_computed_member_expression(self, member);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::app::js::{Script, analyze};

    fn logged(code: &str) -> Vec<Option<String>> {
        analyze(code, "server/server.js", 0, Script::Serverless)
            .logged_iparams
            .into_iter()
            .map(|logged| logged.key)
            .collect()
    }

    #[test]
    fn whole_objects_and_keys_in_logged_arguments() {
        assert_eq!(logged("console.log(args.iparams)"), [None]);
        assert_eq!(
            logged("const { iparams } = args; console.info('got', iparams);"),
            [None]
        );
        assert_eq!(
            logged("console.log(`key ${args.iparams.api_key}`, JSON.stringify(payload.iparams))"),
            [Some("api_key".to_owned()), None]
        );
        assert_eq!(
            logged("console.error(args.iparams['token'])"),
            [Some("token".to_owned())]
        );
    }

    #[test]
    fn what_is_not_the_value_is_not_logged() {
        for code in [
            "console.log(Object.keys(args.iparams))",
            "console.log(Boolean(args.iparams.api_key), args.iparams.api_key.length)",
            "console.log(typeof args.iparams.api_key, !args.iparams.api_key)",
            "console.log(args.iparams.api_key === undefined)",
            "console.log(args.iparams.api_key ? 'set' : 'missing')",
            "logger.log(args.iparams)",
            "console.log(args.data)",
        ] {
            assert_eq!(logged(code), [] as [Option<String>; 0], "{code}");
        }
    }
}
