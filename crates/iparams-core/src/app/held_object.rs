//! Every use of the object one name holds — a variable of `postConfigs`, or a global such as
//! `window.iparams` — anywhere in the code visited, nested functions and callbacks included:
//! what tells whether the keys read from the statements that give it keys are all it gets.
//! A use that could give it keys the reading does not see (a property given in a callback, the
//! object handed to a helper or kept under another name) makes its keys unknown.

use oxc_ast::ast::{
    AssignmentExpression, AssignmentTarget, BindingPattern, CallExpression, Expression, Function,
    MemberExpression, ReturnStatement, SpreadElement,
};
use oxc_ast_visit::{Visit, walk};
use oxc_syntax::scope::ScopeFlags;

use super::literals::literal_string;

/// How the uses of one name were counted.
#[derive(Debug)]
pub(super) struct HeldObject<'n> {
    name: &'n str,
    /// `window.name` (or `self.`, `globalThis.`) is the same object.
    global: bool,
    /// The uses of the object as a value: each is followed (below) or an escape.
    uses: usize,
    /// Uses read as harmless: a property read, a spread into a copy, a `return`, a call that
    /// only reads it (`JSON.stringify`, `console.log`).
    followed: usize,
    /// Assignments to the name or to one of its properties, and `Object.assign` onto it.
    pub(super) writes: usize,
    /// Of those, the object literals given to the name itself.
    pub(super) literals: usize,
    /// Properties given to it (`name.key = …`), anywhere: a known key with where it is
    /// written, or `None`.
    pub(super) keys: Vec<Option<(String, oxc_span::Span)>>,
    /// It is given something that is neither an object literal nor the stored values
    /// `getConfigs(configs)` receives.
    pub(super) other_values: bool,
    /// The parameter of the `getConfigs` being read, when inside one.
    filled: Vec<String>,
}

/// `window`, `self` or `globalThis`.
pub(super) fn is_global_object(expression: &Expression<'_>) -> bool {
    matches!(expression.get_inner_expression(), Expression::Identifier(id) if matches!(id.name.as_str(), "window" | "self" | "globalThis"))
}

impl<'n> HeldObject<'n> {
    /// Counts the uses of the variable `name` (with `global`, of `window.name` too) in what
    /// `visit` visits.
    pub(super) fn count(name: &'n str, global: bool, visit: impl FnOnce(&mut Self)) -> Self {
        let mut held = HeldObject {
            name,
            global,
            uses: 0,
            followed: 0,
            writes: 0,
            literals: 0,
            keys: Vec::new(),
            other_values: false,
            filled: Vec::new(),
        };
        visit(&mut held);
        held
    }

    /// Some use may give the object keys that are not read: it is handed on or kept.
    pub(super) fn escapes(&self) -> bool {
        self.uses > self.followed
    }

    fn holds(&self, expression: &Expression<'_>) -> bool {
        match expression.get_inner_expression() {
            Expression::Identifier(id) => id.name == self.name,
            Expression::StaticMemberExpression(member) => {
                self.global && member.property.name == self.name && is_global_object(&member.object)
            }
            _ => false,
        }
    }

    fn holds_target(&self, target: &AssignmentTarget<'_>) -> bool {
        match target {
            AssignmentTarget::AssignmentTargetIdentifier(id) => id.name == self.name,
            AssignmentTarget::StaticMemberExpression(member) => {
                self.global && member.property.name == self.name && is_global_object(&member.object)
            }
            _ => false,
        }
    }

    /// A use of the object read as harmless.
    fn followed(&mut self) {
        self.uses += 1;
        self.followed += 1;
    }

    /// A call that only reads its arguments.
    fn reads_only(callee: &Expression<'_>) -> bool {
        let Some(member) = callee.get_inner_expression().as_member_expression() else {
            return false;
        };
        let Expression::Identifier(object) = member.object().get_inner_expression() else {
            return false;
        };
        matches!(
            (object.name.as_str(), member.static_property_name()),
            ("console", Some(_))
                | ("JSON", Some("stringify"))
                | ("Object", Some("keys" | "values" | "entries"))
        )
    }
}

impl<'a> Visit<'a> for HeldObject<'_> {
    fn visit_expression(&mut self, expression: &Expression<'a>) {
        if self.holds(expression) {
            self.uses += 1;
        } else {
            walk::walk_expression(self, expression);
        }
    }

    fn visit_member_expression(&mut self, member: &MemberExpression<'a>) {
        if self.holds(member.object()) {
            self.followed();
            if let MemberExpression::ComputedMemberExpression(computed) = member {
                self.visit_expression(&computed.expression);
            }
        } else {
            walk::walk_member_expression(self, member);
        }
    }

    fn visit_assignment_expression(&mut self, assignment: &AssignmentExpression<'a>) {
        if self.holds_target(&assignment.left) {
            self.writes += 1;
            match assignment.right.get_inner_expression() {
                Expression::ObjectExpression(_) => self.literals += 1,
                Expression::Identifier(id) if self.filled.iter().any(|p| p == id.name.as_str()) => {
                }
                _ => self.other_values = true,
            }
            self.visit_expression(&assignment.right);
            return;
        }
        if let Some(member) = assignment.left.as_member_expression()
            && self.holds(member.object())
        {
            self.writes += 1;
            let key = match member {
                MemberExpression::StaticMemberExpression(member) => {
                    Some((member.property.name.to_string(), member.property.span))
                }
                MemberExpression::ComputedMemberExpression(member) => {
                    self.visit_expression(&member.expression);
                    literal_string(&member.expression).map(|(key, span)| (key.to_owned(), span))
                }
                MemberExpression::PrivateFieldExpression(_) => None,
            };
            self.keys.push(key);
            self.visit_expression(&assignment.right);
            return;
        }
        walk::walk_assignment_expression(self, assignment);
    }

    fn visit_call_expression(&mut self, call: &CallExpression<'a>) {
        let callee = call.callee.get_inner_expression();
        let assign = callee.as_member_expression().is_some_and(|member| {
            matches!(member.object().get_inner_expression(), Expression::Identifier(id) if id.name == "Object")
                && member.static_property_name() == Some("assign")
        });
        let reads_only = Self::reads_only(callee);
        if !assign && !reads_only {
            walk::walk_call_expression(self, call);
            return;
        }
        self.visit_expression(&call.callee);
        for (at, argument) in call.arguments.iter().enumerate() {
            match argument.as_expression() {
                Some(value) if assign && at == 0 && self.holds(value) => {
                    self.writes += 1;
                    self.other_values = true;
                }
                Some(value) if self.holds(value) => self.followed(),
                _ => self.visit_argument(argument),
            }
        }
    }

    fn visit_spread_element(&mut self, spread: &SpreadElement<'a>) {
        if self.holds(&spread.argument) {
            self.followed();
        } else {
            walk::walk_spread_element(self, spread);
        }
    }

    fn visit_return_statement(&mut self, ret: &ReturnStatement<'a>) {
        match &ret.argument {
            Some(value) if self.holds(value) => self.followed(),
            _ => walk::walk_return_statement(self, ret),
        }
    }

    fn visit_function(&mut self, function: &Function<'a>, flags: ScopeFlags) {
        let parameter = function
            .id
            .as_ref()
            .filter(|id| id.name == "getConfigs")
            .and_then(|_| function.params.items.first())
            .and_then(|param| match &param.pattern {
                BindingPattern::BindingIdentifier(id) => Some(id.name.to_string()),
                _ => None,
            });
        let inside = parameter.is_some();
        self.filled.extend(parameter);
        walk::walk_function(self, function, flags);
        if inside {
            self.filled.pop();
        }
    }
}
