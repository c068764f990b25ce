/* iparams-lint preview: the installation page (docs/preview.md), in plain JavaScript.
 * The server gives the iparams (file order), the linter's findings and the stored values (secure
 * ones only named); it carries out template calls, the credential check and the store. */
"use strict";
(function () {
  var BASE = "/custom_configs";
  var DEBOUNCE_MS = 300;
  var PHONE_PATTERN = "([0-9]{3}-[0-9]{3}-[0-9]{4})|([0-9]{10})";
  var MESSAGES = {
    required: "This field is required!",
    email: "Invalid e-mail address!",
    url: "Invalid URL!",
    date: "Invalid date!",
    phone: "Invalid format!. It should be a 10 digit number such as 1234567890 or 123-456-7890.",
    number: "Invalid number!",
    credentials: "Domain or API key is not matching",
    stored: "App installation parameters have been successfully stored. You can now proceed to test the app.",
    failed: "Validation failed.",
  };
  var SETTABLE = ["value", "label", "visible", "disabled", "required", "hint", "values", "min", "max"];

  var state = null;
  var fields = {};          // key -> field
  var order = [];
  var values = {};          // key -> value, kept across reloads while the key exists
  var typed = {};           // keys the user (or utils.set) gave a value in this page
  var loaded = false;
  var customFrame = null;   // the frame of a custom page (config/iparams.html)

  function $(id) { return document.getElementById(id); }
  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (name) {
      var v = attrs[name];
      if (v === undefined || v === null || v === false) return;
      if (name === "text") node.textContent = v;
      else node.setAttribute(name, v === true ? "" : v);
    });
    (children || []).forEach(function (c) { if (c) node.appendChild(c); });
    return node;
  }
  /** In an editor's view beside the file (framed: the standalone preview may not be). */
  var EMBEDDED = window.parent !== window;
  function clone(v) { return v === undefined ? undefined : JSON.parse(JSON.stringify(v)); }
  function asList(v) { return Array.isArray(v) ? v.filter(function (x) { return typeof x === "string"; }) : []; }

  // ---- values of controls -------------------------------------------------------------
  function initialValue(def) {
    if (Object.prototype.hasOwnProperty.call(values, def.key) && typed[def.key]) return values[def.key];
    if (state.stored && Object.prototype.hasOwnProperty.call(state.stored, def.key)) return state.stored[def.key];
    // `default_value || …`, as the page does: an unticked checkbox whose default is false starts as "".
    if (def.default_value) return clone(def.default_value);
    return def.type === "multiselect" ? [] : "";
  }

  function subDomain(text) {
    text = String(text || "").trim();
    var i = text.indexOf("://");
    if (i >= 0) text = text.slice(i + 3);
    text = text.split(/[/?#]/)[0];
    return text.split(".")[0];
  }

  function read(field) {
    var t = field.def.type;
    if (t === "checkbox") return field.control.checked;
    if (t === "multiselect") return Array.prototype.filter.call(field.control.options, function (o) { return o.selected; }).map(function (o) { return o.value; });
    if (t === "radio") {
      var picked = field.radios.filter(function (r) { return r.checked; })[0];
      return picked ? picked.value : "";
    }
    return field.control.value;
  }

  function write(field, value) {
    var t = field.def.type;
    if (t === "checkbox") field.control.checked = value === true || value === "true";
    else if (t === "multiselect") {
      var list = asList(value);
      Array.prototype.forEach.call(field.control.options, function (o) { o.selected = list.indexOf(o.value) >= 0; });
    } else if (t === "radio") field.radios.forEach(function (r) { r.checked = r.value === value; });
    else if (t === "dropdown") {
      ensureOption(field, value);
      field.control.value = value === undefined || value === null ? "" : String(value);
    } else field.control.value = value === undefined || value === null ? "" : (t === "domain" ? subDomain(value) : String(value));
    values[field.def.key] = t === "domain" ? subDomain(value) : clone(value);
  }

  function ensureOption(field, value) {
    // A dropdown's empty choice, so that "" (no default) is a value it can hold.
    if (value === "" && !field.control.querySelector('option[value=""]')) {
      field.control.insertBefore(el("option", { value: "", text: "" }), field.control.firstChild);
    }
  }

  // ---- building the form ----------------------------------------------------------------
  function optionsOf(field) { return asList(field.attrs.values); }

  function fillOptions(field) {
    var t = field.def.type, current = values[field.def.key];
    if (t === "dropdown" || t === "multiselect") {
      field.control.textContent = "";
      if (t === "dropdown") field.control.appendChild(el("option", { value: "", text: "" }));
      optionsOf(field).forEach(function (o) { field.control.appendChild(el("option", { value: o, text: o })); });
    } else if (t === "radio") {
      field.group.textContent = "";
      field.radios = optionsOf(field).map(function (o, i) {
        var r = el("input", { type: "radio", name: "iparam-" + field.def.key, value: o, id: "iparam-" + field.def.key + "-" + i });
        if (i === 0) r.setAttribute("data-iparam", field.def.key);
        r.addEventListener("change", function () { userChanged(field); });
        field.group.appendChild(el("label", {}, [r, document.createTextNode(" " + o)]));
        return r;
      });
      field.control = field.radios[0] || field.group;
    }
    if (current !== undefined) write(field, current);
  }

  function buildControl(field) {
    var def = field.def, key = def.key, t = def.type, id = "iparam-" + key;
    var common = { id: id, "data-iparam": key, name: key, "data-bind": def["data-bind"] || def["Data-bind"] };
    var input = function (type) { return el("input", Object.assign({ type: type }, common)); };
    var wrap;
    switch (t) {
      case "paragraph": field.control = el("textarea", Object.assign({ rows: 3 }, common)); break;
      case "dropdown": field.control = el("select", common); break;
      case "email": field.control = input("email"); break;
      case "number": field.control = input("number"); break;
      case "phone_number": field.control = input("tel"); break;
      case "date": {
        // A text input (value YYYY-MM-DD, typed or pasted) with the browser's date picker beside it.
        field.control = input("text");
        field.control.setAttribute("placeholder", "YYYY-MM-DD");
        var picker = el("input", { type: "date", class: "picker", tabindex: "-1", "aria-label": "Pick the date of " + key });
        var open = el("button", { type: "button", class: "pick", text: "📅", title: "Pick a date" });
        open.addEventListener("click", function () {
          picker.value = /^\d{4}-\d{2}-\d{2}$/.test(field.control.value) ? field.control.value : "";
          if (picker.showPicker) picker.showPicker(); else picker.focus();
        });
        picker.addEventListener("change", function () {
          field.control.value = picker.value;
          userChanged(field);
        });
        wrap = el("div", { class: "date" }, [field.control, open, picker]);
        break;
      }
      case "url": field.control = input("url"); break;
      case "checkbox":
        field.control = input("checkbox");
        wrap = el("div", { class: "checkbox" }, [el("label", { for: id }, [field.control, document.createTextNode(" " + (def.display_name || key))])]);
        break;
      case "multiselect":
        field.control = el("select", Object.assign({ multiple: true }, common));
        field.search = el("input", { type: "text", class: "search", placeholder: "Search options", "aria-label": "Search the options of " + key });
        field.search.addEventListener("input", function () {
          var q = field.search.value.toLowerCase();
          Array.prototype.forEach.call(field.control.options, function (o) { o.hidden = q !== "" && o.value.toLowerCase().indexOf(q) < 0; });
        });
        wrap = el("div", { class: "multiselect" }, [field.search, field.control]);
        break;
      case "radio":
        field.group = el("div", { class: "radio-group", role: "radiogroup", id: id });
        wrap = field.group;
        break;
      case "domain": {
        field.control = input("text");
        var product = def.type_attributes && def.type_attributes.product;
        var suffixes = state.product_domains[product] || [product === "current" ? "<the product's domain>" : "<" + (product || "product") + " domain>"];
        var after = suffixes.length > 1
          ? el("select", { class: "fixed", "aria-label": "Domain of " + key }, suffixes.map(function (s) { return el("option", { value: s, text: "." + s }); }))
          : el("span", { class: "fixed", text: "." + suffixes[0] });
        wrap = el("div", { class: "domain" }, [el("span", { class: "fixed", text: "https://" }), field.control, after]);
        break;
      }
      default: field.control = input("text"); // text, api_key (not masked, as the vendor's page)
    }
    if (!wrap) wrap = field.control;
    if (t !== "radio" && t !== "checkbox") {
      field.control.addEventListener(t === "dropdown" || t === "multiselect" ? "change" : "input", function () { userChanged(field); });
      if (t === "domain") field.control.addEventListener("change", function () { userChanged(field); });
    } else if (t === "checkbox") {
      field.control.addEventListener("change", function () { userChanged(field); });
    }
    return wrap;
  }

  function buildField(def) {
    var key = def.key;
    var field = {
      def: def,
      attrs: {
        label: def.display_name || key, hint: def.description || "", required: def.required === true,
        visible: def.visible !== false, disabled: false, values: asList(def.options), min: undefined, max: undefined,
      },
      callbackMessage: "", installMessage: "", serverMessage: "", timer: null, sequence: 0,
    };
    var controlWrap = buildControl(field);
    field.label = el(def.type === "checkbox" || def.type === "radio" ? "div" : "label", { class: def.type === "checkbox" || def.type === "radio" ? "label" : null, for: def.type === "radio" ? null : "iparam-" + key });
    field.hint = el("p", { class: "hint" });
    field.error = el("p", { class: "error", "data-iparam-error": key, "aria-live": "polite" });
    field.thrown = el("p", { class: "thrown", "data-callback-error": key, hidden: true });
    field.findings = el("ul", { class: "findings", "data-findings-of": key });
    field.secureNote = el("p", { class: "secure-set", hidden: true, "data-secure-set": key, text: "A value is stored; it is never sent back to this page. Type a new one to replace it." });
    field.wrap = el("div", { class: "field", "data-field": key, "data-type": def.type || "" }, [
      def.type === "checkbox" ? null : field.label, field.hint, controlWrap, field.secureNote, field.error, field.thrown, field.findings,
    ]);
    if (def.type === "checkbox") field.wrap.insertBefore(field.label, field.wrap.firstChild);
    fillOptions(field);
    write(field, initialValue(def));
    var isSet = def.secure && state.secure_set.indexOf(key) >= 0 && !typed[key];
    field.secureSet = isSet;
    field.secureNote.hidden = !isSet;
    render(field);
    return field;
  }

  function render(field) {
    var a = field.attrs, t = field.def.type;
    field.label.textContent = "";
    field.label.appendChild(document.createTextNode(t === "checkbox" ? "" : a.label));
    if (t === "checkbox") {
      var text = field.wrap.querySelector(".checkbox label");
      if (text && text.lastChild) text.lastChild.textContent = " " + a.label;
    }
    if (a.required) field.label.appendChild(el("span", { class: "required-mark", text: "*", title: "required" }));
    field.hint.textContent = a.hint;
    field.hint.hidden = !a.hint;
    field.wrap.hidden = !a.visible;
    var controls = field.radios && field.radios.length ? field.radios : [field.control];
    controls.forEach(function (c) { c.disabled = !!a.disabled; });
    if (t === "number") {
      if (a.min !== undefined) field.control.min = a.min; else field.control.removeAttribute("min");
      if (a.max !== undefined) field.control.max = a.max; else field.control.removeAttribute("max");
    }
  }

  // ---- validation -----------------------------------------------------------------------
  function regexParts(def) {
    var entries = Array.isArray(def.regex) ? def.regex : [];
    var patterns = [], messages = [];
    entries.forEach(function (e) {
      if (typeof e[1] !== "string") return;
      if (e[0].indexOf("-error") >= 0) messages.push(e[1]); else patterns.push("(" + e[1] + ")");
    });
    return { pattern: patterns.join("|"), message: messages.join("/") };
  }

  function matchesWhole(pattern, value) {
    // As the browser applies `pattern`: the whole value, with the `v` flag (or `u` before it).
    var re;
    try { re = new RegExp("^(?:" + pattern + ")$", "v"); } catch (e) {
      try { re = new RegExp("^(?:" + pattern + ")$", "u"); } catch (e2) { return true; } // an invalid pattern is ignored
    }
    return re.test(value);
  }

  /** A real calendar date written YYYY-MM-DD. */
  function isDate(text) {
    var m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
    if (!m) return false;
    var d = new Date(Date.UTC(+m[1], +m[2] - 1, +m[3]));
    return d.getUTCFullYear() === +m[1] && d.getUTCMonth() === +m[2] - 1 && d.getUTCDate() === +m[3];
  }

  function isEmpty(field, value) {
    if (field.def.type === "checkbox") return value !== true;
    if (Array.isArray(value)) return value.length === 0;
    return value === undefined || value === null || String(value) === "";
  }

  /** The field's message, or "" when it is valid. Hidden fields are not validated. */
  function check(field) {
    if (!field.attrs.visible) return "";
    var def = field.def, value = values[def.key], t = def.type, c = field.control;
    if (field.installMessage) return field.installMessage;
    if (field.serverMessage) return field.serverMessage;
    if (field.callbackMessage) return field.callbackMessage;
    if (isEmpty(field, value)) {
      var stillSet = field.secureSet && !typed[def.key];
      if (t === "number" && c.validity && c.validity.badInput) return MESSAGES.number;
      return field.attrs.required && !stillSet ? MESSAGES.required : "";
    }
    var regex = regexParts(def);
    if (regex.pattern) {
      if (Array.isArray(value) || typeof value === "boolean") return "";
      return matchesWhole(regex.pattern, String(value)) ? "" : (regex.message || "Please match the requested format.");
    }
    if (t === "email" && c.validity.typeMismatch) return MESSAGES.email;
    if (t === "url" && c.validity.typeMismatch) return MESSAGES.url;
    if (t === "phone_number" && !matchesWhole(PHONE_PATTERN, String(value))) return MESSAGES.phone;
    if (t === "date" && !isDate(String(value))) return MESSAGES.date;
    if (t === "number") {
      var n = Number(value);
      if (String(value).trim() === "" || isNaN(n)) return MESSAGES.number;
      if (field.attrs.min !== undefined && n < Number(field.attrs.min)) return "The number is too small! Minimum: " + field.attrs.min;
      if (field.attrs.max !== undefined && n > Number(field.attrs.max)) return "The number is too big! Maximum: " + field.attrs.max;
    }
    return "";
  }

  function show(field) {
    var message = check(field);
    field.error.textContent = message;
    field.wrap.classList.toggle("invalid", message !== "");
    if (field.control && field.control.setCustomValidity) field.control.setCustomValidity(message);
    return message;
  }

  // ---- changes and callbacks ------------------------------------------------------------
  function userChanged(field) {
    var key = field.def.key;
    var value = read(field);
    values[key] = field.def.type === "domain" ? subDomain(value) : value;
    typed[key] = true;
    field.installMessage = "";
    field.serverMessage = "";
    pairOf(field).forEach(function (other) { other.installMessage = ""; show(other); });
    if (field.secureSet) { field.secureSet = false; field.secureNote.hidden = true; }
    clearTimeout(field.timer);
    field.timer = setTimeout(function () {
      if (field.def.type === "domain" && field.control.value !== values[key]) field.control.value = values[key];
      runCallback(field).then(function () { show(field); });
    }, DEBOUNCE_MS);
  }

  function callbackName(def) {
    var events = Array.isArray(def.events) ? def.events : [];
    for (var i = 0; i < events.length; i++) {
      if (events[i] && typeof events[i].change === "string") return events[i].change;
    }
    return null;
  }

  function messageOf(reason) {
    if (typeof reason === "string") return reason;
    if (reason && typeof reason.message === "string") return reason.message;
    return "";
  }

  /** Calls the field's change callback with its value; applies the return rules. */
  function runCallback(field) {
    var name = callbackName(field.def);
    if (!name) return Promise.resolve();
    var fn = window[name];
    if (typeof fn !== "function") {
      console.log("Function does not exist: " + name);
      return Promise.resolve();
    }
    var sequence = ++field.sequence;
    var result;
    field.thrown.hidden = true;
    field.thrown.textContent = "";
    try { result = fn(clone(values[field.def.key])); } catch (error) {
      // The vendor's page only logs it; shown here, and the field is left as it was.
      console.error("The callback " + name + " threw; the field is left as it was", error);
      field.thrown.textContent = "The change callback " + name + " threw " + describeError(error) + "; the field is left as it was.";
      field.thrown.hidden = false;
      scriptError("the change callback " + name + " of " + field.def.key, error);
      return Promise.resolve();
    }
    var apply = function (message) {
      if (sequence !== field.sequence) return; // a later change answered already
      setCallbackMessage(field, message);
    };
    if (result && typeof result.then === "function") {
      return Promise.resolve(result).then(function (v) { apply(typeof v === "string" ? v : ""); },
        function (reason) { apply(messageOf(reason)); });
    }
    apply(typeof result === "string" ? result : "");
    return Promise.resolve();
  }

  function setCallbackMessage(field, message) {
    field.callbackMessage = message || "";
    if (message) {
      // The format document: an error message clears the value (the FDK 6.9 page does not).
      var empty = field.def.type === "multiselect" ? [] : field.def.type === "checkbox" ? false : "";
      write(field, empty);
    }
    show(field);
  }

  // ---- utils, app, client ---------------------------------------------------------------
  window.utils = {
    get: function (key) { return fields[key] ? clone(values[key]) : undefined; },
    set: function (key, attributes) {
      var field = fields[key];
      if (!field) { console.warn("utils.set: no iparam " + key); return; }
      var wasVisible = field.attrs.visible;
      Object.keys(attributes || {}).forEach(function (name) {
        var v = attributes[name];
        if (SETTABLE.indexOf(name) < 0) { console.info("utils.set: the attribute " + name + " is ignored"); return; }
        if (name === "value") { write(field, v); typed[key] = true; field.callbackMessage = ""; }
        else if (name === "values") {
          if (["dropdown", "radio", "multiselect"].indexOf(field.def.type) < 0) { console.info("utils.set: values applies to dropdown, radio and multiselect only"); return; }
          field.attrs.values = asList(v); fillOptions(field);
        } else if ((name === "min" || name === "max") && field.def.type !== "number") {
          console.info("utils.set: " + name + " applies to number only");
        } else if (name === "label" || name === "hint") field.attrs[name] = String(v);
        else if (name === "min" || name === "max") field.attrs[name] = v;
        else field.attrs[name] = v === true;
      });
      render(field);
      if (field.error.textContent) show(field);
      // A field shown or hidden takes its findings with it (hidden ones are listed at the top).
      if (field.attrs.visible !== wasVisible) showFindings();
    },
  };

  var post = window.iparamsPreview.post;

  /** The values to send: every iparam (hidden ones too); a stored secure one left out unless replaced. */
  function currentValues() {
    var out = {};
    order.forEach(function (key) {
      var field = fields[key];
      if (field.def.secure && field.secureSet && !typed[key]) return;
      var v = values[key];
      if (field.def.type === "checkbox") v = v === true;
      out[key] = v === undefined ? "" : v;
    });
    return out;
  }

  var client = {
    context: { location: "installation_page", product: null },
    // Templates and the request API of apps before platform 2.3, carried out by the server.
    request: window.iparamsPreview.request(currentValues),
    iparams: { get: function () { return Promise.reject({ message: "client.iparams is not available on the installation page" }); } },
    // Sample product data, for the product the iparams name once the state is read.
    data: { get: function (name) { return window.iparamsPreview.sampleData(client.context.product || "freshdesk", state.domain_name).get(name); } },
  };
  client.context.get = function () { return Promise.resolve({ location: client.context.location, product: client.context.product }); };
  // Any other call rejects naming itself, instead of a TypeError in the callback.
  var shownClient = window.iparamsPreview.knowing(client, "client");
  window.app = { initialized: function () { return Promise.resolve(shownClient); } };
  // Callbacks written against the vendor's page use a global `client`.
  window.client = shownClient;

  // ---- findings, problems and notes -----------------------------------------------------
  /** A finding; one not shown at its field says where it is (a hidden field, or a place). */
  function findingItem(f, atField) {
    var where = "";
    if (!atField) {
      where = "  (" + (f.key ? "on " + f.key + ", a field not shown on the page; " : "") +
        f.path + ":" + f.start.line + ":" + f.start.column + ")";
    }
    var item = el("li", { class: f.severity, "data-finding": f.rule, "data-finding-key": f.key || "" }, [
      el("span", { class: "rule", text: "[" + f.rule + "] " }),
      document.createTextNode(f.message + where),
      f.help ? el("span", { class: "help", text: f.help }) : null,
    ]);
    if (EMBEDDED && f.path && f.start) {
      // Shown in an editor's view: a click asks the editor to show the finding's line.
      item.setAttribute("data-reveal", "");
      item.title = "Show " + f.path + ":" + f.start.line + ":" + f.start.column + " in the editor";
      item.addEventListener("click", function () {
        window.parent.postMessage({ type: "iparams-lint.reveal", path: f.path, line: f.start.line, column: f.start.column }, "*");
      });
    }
    return item;
  }

  /** Each finding at its field when the field is shown; the others in a list at the top. */
  function showFindings() {
    var top = $("top-findings");
    top.textContent = "";
    order.forEach(function (key) { fields[key].findings.textContent = ""; });
    var list = el("ul", { class: "findings" });
    (state.findings || []).forEach(function (f) {
      var field = f.key && fields[f.key];
      if (field && field.attrs.visible) field.findings.appendChild(findingItem(f, true));
      else list.appendChild(findingItem(f, false));
    });
    if (list.childNodes.length) {
      top.appendChild(el("h2", { text: "Findings" }));
      top.appendChild(list);
    }
  }

  /** Why INSTALL failed where no shown field can say it: a hidden field, or the values as a whole. */
  function showProblems(problems) {
    var list = $("install-problems-list");
    list.textContent = "";
    problems.forEach(function (p) {
      list.appendChild(el("li", { class: "error", "data-problem-key": p.key || "" }, [
        p.rule ? el("span", { class: "rule", text: "[" + p.rule + "] " }) : null,
        document.createTextNode((p.key ? p.key + " (a field not shown on the page): " : "") + p.message),
      ]));
    });
    $("install-problems").hidden = problems.length === 0;
  }

  /** What an exception says: its kind and message, secure values typed on this page masked. */
  function describeError(error) {
    var text = error && typeof error === "object" && typeof error.message === "string"
      ? (error.name ? error.name + ": " : "") + error.message
      : String(error);
    order.forEach(function (key) {
      var v = values[key];
      // Shorter than four characters, a value is no secret and masking it would garble the text.
      if (fields[key].def.secure && typeof v === "string" && v.length >= 4) text = text.split(v).join("****");
    });
    return text;
  }

  var MAX_SCRIPT_ERRORS = 20;

  /** An exception of the app's script, listed at the top (the vendor's page only logs it). */
  function scriptError(source, error) {
    var list = $("script-errors-list");
    if (list.childNodes.length >= MAX_SCRIPT_ERRORS) return;
    list.appendChild(el("li", { class: "warning", "data-script-error": source }, [
      el("span", { class: "rule", text: source + ": " }),
      document.createTextNode(describeError(error)),
    ]));
    $("script-errors").hidden = false;
  }

  function clearScriptErrors() {
    $("script-errors-list").textContent = "";
    $("script-errors").hidden = true;
  }

  /** What becomes of the scripts and styles a custom page loads from other hosts. */
  function remoteNote() {
    var hosts = state.remote_hosts || [];
    if (state.network.remote_scripts) {
      return "Scripts, styles, fonts and images from https:// hosts are loaded (--allow-remote-scripts)" +
        (hosts.length ? ": this page loads from " + hosts.join(", ") + "." : ".");
    }
    if (!hosts.length) return "Scripts and styles from other hosts would not be loaded: the preview is offline.";
    return "Blocked: the scripts and styles this page loads from " + hosts.join(", ") +
      " (the preview is offline). Start it with --allow-remote-scripts to load them, as the product would.";
  }

  function showNotes() {
    var notes = state.custom_page ? [
      "The app writes its own installation page, " + state.custom_page + ": it is shown in the frame below as the vendor's local run shows it, with the preview's client in place of the vendor's.",
      remoteNote(),
      "On load the page's getConfigs(configs) gets the stored values (secure ones left out); INSTALL calls its validate(), then its postConfigs(), and stores what that returns; the values of the keys its __meta.secure names are secure.",
      "Template calls of the page's scripts are made by the preview server from config/requests.json with the stored values, so secure values stay on it. " +
        (state.network.online ? "Hosts are called for real (--online)." : "Without --online, hosts other than --hr-url's are not called: the call gets an offline error."),
      "INSTALL stores the values in " + state.values_path + " (it holds secrets, so keep it out of version control). Secure values are never sent back to this page.",
    ].concat(state.notes || []) : [
      "This page is built by iparams-lint from config/iparams.json, offline: no script or style comes from elsewhere. The linter's findings are shown at their field.",
      "Where the format document and the vendor's page (FDK 6.9) differ, this page follows the document: a callback's error message clears the field's value (the vendor's page keeps it).",
      "Template calls of callbacks are made by the preview server from config/requests.json, so secure values stay on it. " +
        (state.network.hr_url ? "Hosts of the HR service go to the --hr-url service. " : "") +
        (state.network.online ? "Other hosts are called for real (--online)." : "Without --online, other hosts are not called: the callback gets an offline error."),
      "INSTALL stores the values in " + state.values_path + " (a values file `iparams-lint values` checks; it holds secrets, so keep it out of version control). Secure values are never sent back to this page.",
    ].concat(state.notes || []);
    var blocked = !!state.custom_page && !state.network.remote_scripts && (state.remote_hosts || []).length > 0;
    $("remote-blocked").textContent = blocked ? remoteNote() : "";
    $("remote-blocked").hidden = !blocked;
    var list = $("notes-list");
    list.textContent = "";
    notes.forEach(function (n) { list.appendChild(el("li", { text: n })); });
  }

  // ---- loading and reloading --------------------------------------------------------------
  function build() {
    $("app-name").textContent = state.app_name || state.app;
    $("app-name").setAttribute("title", state.app);
    // What the last INSTALL or script said is about the app as it was: the page starts again.
    setStatus("", "", []);
    showProblems([]);
    clearScriptErrors();
    $("interface-calls-list").textContent = "";
    $("interface-calls").hidden = true;
    var form = $("form");
    form.textContent = "";
    fields = {};
    order = [];
    var broken = $("broken");
    $("custom-page-holder").textContent = "";
    customFrame = null;
    $("script-errors-title").textContent = "Errors thrown by " + (state.custom_page ? "the scripts of " + state.custom_page : "config/assets/iparams.js");
    if (state.custom_page) {
      broken.hidden = true;
      $("install").disabled = false;
      showFindings();
      showNotes();
      return;
    }
    if (state.broken || !Array.isArray(state.iparams)) {
      broken.hidden = false;
      broken.textContent = "config/iparams.json cannot be read as iparams (see the findings above): the form comes back as soon as it is fixed.";
      $("install").disabled = true;
    } else {
      broken.hidden = true;
      $("install").disabled = false;
      state.iparams.forEach(function (def) {
        var field = buildField(def);
        fields[def.key] = field;
        order.push(def.key);
        form.appendChild(field.wrap);
      });
      var product = state.iparams.map(function (d) { return d.type_attributes && d.type_attributes.product; }).filter(Boolean)[0];
      client.context.product = product || null;
    }
    // While iparams.json does not parse, what was typed waits for the form to come back.
    if (!broken.hidden) { showFindings(); showNotes(); return; }
    Object.keys(values).forEach(function (key) { if (!fields[key]) { delete values[key]; delete typed[key]; } });
    showFindings();
    showNotes();
  }

  /** When the frame's page has been given its stored values: its client waits for it (below). */
  var configsGiven = Promise.resolve();

  /**
   * The custom page in its frame; once it has loaded, its getConfigs gets the stored values.
   * The frame's `app.initialized()` resolves only after that (client.js waits for
   * `configsGiven`), so that a page that fills its form from what getConfigs kept, once its
   * client is ready, always finds the values there, however long its scripts take to load.
   */
  function loadCustomPage(version) {
    var given;
    configsGiven = new Promise(function (resolve) { given = resolve; });
    return new Promise(function (resolve) {
      var frame = el("iframe", { src: BASE + "/form?v=" + version, title: state.custom_page, "data-custom-page": state.custom_page });
      frame.addEventListener("load", function () {
        var page = frame.contentWindow;
        // What the page's own scripts throw later (in handlers and timers) is shown too.
        page.addEventListener("error", function (event) {
          var file = (event.filename || "").replace(/^.*\/custom_configs\/(form|assets\/)/, function (_, part) { return part === "form" ? state.custom_page : "config/assets/"; }).replace(/\?.*$/, "");
          scriptError((file || state.custom_page) + ":" + event.lineno, event.error || event.message);
        });
        var stored = state.stored || {};
        var calls = Promise.resolve();
        if (Object.keys(stored).length || (state.secure_set || []).length) {
          if (typeof page.getConfigs === "function") {
            calls = Promise.resolve().then(function () { return page.getConfigs(clone(stored)); })
              .catch(function (e) { console.error("getConfigs threw", e); scriptError("getConfigs", e); });
          } else {
            scriptError("getConfigs", { name: "", message: "the page defines no getConfigs(configs), so the stored values are not shown in it (declare it as a global function)" });
          }
        }
        calls.then(function () { given(); resolve(); });
      }, { once: true });
      customFrame = frame;
      $("custom-page-holder").appendChild(frame);
    });
  }

  function loadScript(version) {
    if (state.custom_page) return loadCustomPage(version);
    if (!state.script) return Promise.resolve();
    return new Promise(function (resolve) {
      var s = document.createElement("script");
      s.src = BASE + "/assets/iparams.js?v=" + version;
      s.onload = resolve;
      s.onerror = function () { console.error("config/assets/iparams.js could not be loaded"); resolve(); };
      document.body.appendChild(s);
    });
  }

  function fetchState() {
    return fetch(BASE + "/state").then(function (r) { return r.json(); });
  }

  function watch() {
    fetch(BASE + "/changes?since=" + state.version).then(function (r) { return r.json(); }).then(function (c) {
      if (c.version > state.version) {
        return fetchState().then(function (fresh) {
          state = fresh;
          build();
          return loadScript(state.version);
        }).then(function () { document.body.setAttribute("data-version", state.version); });
      }
    }).then(watch, function () { setTimeout(watch, 1000); });
  }

  // ---- INSTALL -----------------------------------------------------------------------------
  function pairOf(field) {
    return (field.pair || []).map(function (k) { return fields[k]; }).filter(Boolean);
  }

  /** The outcome in the page's own words; what else there is to say goes beside it. */
  function setStatus(text, outcome, notes) {
    $("install-notes").textContent = (notes || []).join(" ");
    var s = $("install-status");
    s.textContent = text;
    s.setAttribute("data-outcome", outcome || "");
    var bar = $("snackbar");
    bar.textContent = text;
    bar.hidden = !text;
    clearTimeout(setStatus.timer);
    setStatus.timer = setTimeout(function () { bar.hidden = true; }, 4000);
  }

  /** A stop of INSTALL in a custom page, with why. */
  function Stop(message) { this.message = message; }

  /** INSTALL of a custom page: its validate() (false stops), its postConfigs(), and the store. */
  function installCustom() {
    var button = $("install");
    button.disabled = true;
    setStatus("Installing…", "running", []);
    showProblems([]);
    var page = customFrame && customFrame.contentWindow;
    var call = function (name, args) {
      if (!page || typeof page[name] !== "function") return undefined;
      try { return Promise.resolve(page[name].apply(page, args || [])); } catch (e) { return Promise.reject(e); }
    };
    var threw = function (name) {
      return function (error) {
        if (error instanceof Stop) throw error;
        throw new Stop(name + "() threw " + describeError(error) + "; INSTALL stopped");
      };
    };
    return (call("validate") || Promise.resolve(true)).catch(threw("validate")).then(function (valid) {
      if (!valid) throw new Stop("validate() returned " + String(valid) + ": the page says why; INSTALL stopped");
      var configs = call("postConfigs");
      if (!configs) throw new Stop("The page defines no postConfigs(): INSTALL stores what it returns; declare `function postConfigs() { return {...}; }` in " + state.custom_page + " or a script it loads");
      return configs.catch(threw("postConfigs"));
    }).then(function (configs) {
      if (!configs || typeof configs !== "object" || Array.isArray(configs)) {
        throw new Stop("postConfigs() returned " + (Array.isArray(configs) ? "an array" : String(configs)) + ", not an object of iparam key → value");
      }
      return post("store", configs);
    }).then(function (s) {
      if (s.status === 200) {
        state.findings = s.json.findings || [];
        showFindings();
        // What `iparams-lint values` says of what was stored, against what the code returns.
        var notes = (s.json.diagnostics || []).map(function (d) {
          return "The stored values: " + d.message + " [" + d.rule + "].";
        });
        setStatus(MESSAGES.stored, "passed", notes);
        return;
      }
      throw new Stop(s.json.error || ("the store answered " + s.status));
    }).catch(function (error) {
      showProblems([{ message: error instanceof Stop ? error.message : describeError(error) }]);
      setStatus(MESSAGES.failed, "failed", []);
    }).then(function () { button.disabled = false; });
  }

  /** `client.interface.trigger` of a custom page: listed, as the product would show it. */
  function interfaceCall(action, options) {
    var list = $("interface-calls-list");
    if (list.childNodes.length >= MAX_SCRIPT_ERRORS) return;
    var shown;
    try { shown = JSON.stringify(options === undefined ? {} : options); } catch (e) { shown = String(options); }
    list.appendChild(el("li", { class: "info", "data-interface-call": action, text: action + " " + shown }));
    $("interface-calls").hidden = false;
  }

  function install() {
    if (state.custom_page) return installCustom();
    var button = $("install");
    button.disabled = true;
    setStatus("Installing…", "running", []);
    order.forEach(function (k) { fields[k].installMessage = ""; fields[k].serverMessage = ""; });
    showProblems([]);
    var notes = [];
    var problems = [];
    return post("credentials", currentValues()).then(function (r) {
      var failed = false;
      (Array.isArray(r.json) ? r.json : []).forEach(function (c) {
        var d = fields[c.domain], k = fields[c.api_key];
        if (d && k) { d.pair = [c.api_key]; k.pair = [c.domain]; }
        if (c.outcome === "failed") {
          failed = true;
          [d, k].forEach(function (f) {
            if (!f) return;
            f.installMessage = MESSAGES.credentials;
            if (!f.attrs.visible) problems.push({ key: f.def.key, message: MESSAGES.credentials });
          });
        } else if (c.outcome === "skipped" && c.message) notes.push(c.message);
      });
      var first = null;
      order.forEach(function (k) {
        var field = fields[k];
        if (show(field) && !first) first = field;
      });
      if (failed || first) {
        if (first) (first.radios && first.radios[0] || first.control).focus();
        showProblems(problems);
        setStatus(MESSAGES.failed, "failed", notes);
        return;
      }
      return post("store", currentValues()).then(function (s) {
        if (s.status === 200) {
          setStatus(MESSAGES.stored, "passed", notes);
          return;
        }
        (s.json.diagnostics || []).forEach(function (d) {
          var key = (d.pointer || "").split("/")[1];
          key = key === undefined ? "" : key.replace(/~1/g, "/").replace(/~0/g, "~");
          if (d.severity !== "error") return;
          var field = fields[key];
          if (field && field.attrs.visible) { field.serverMessage = d.message; show(field); }
          else problems.push({ key: field ? key : "", rule: d.rule, message: d.message });
        });
        if (s.json.error) problems.push({ message: s.json.error });
        showProblems(problems);
        setStatus(MESSAGES.failed, "failed", notes);
      });
    }).catch(function (error) {
      setStatus(MESSAGES.failed, "failed", [String(error)]);
    }).then(function () { button.disabled = !!(state && state.broken); });
  }

  // ---- start -------------------------------------------------------------------------------
  $("install").addEventListener("click", install);
  // What the app's script throws outside the page's calls (at its top level, in its own timers
  // and handlers): the vendor's page leaves it to the console.
  window.addEventListener("error", function (event) {
    if (!event.filename || event.filename.indexOf(BASE + "/assets/") < 0) return;
    var file = event.filename.replace(/^.*\/custom_configs\/assets\//, "config/assets/").replace(/\?.*$/, "");
    scriptError(file + ":" + event.lineno, event.error || event.message);
  });
  window.addEventListener("pagehide", function () {
    if (typeof window.onFormUnload === "function") {
      try { window.onFormUnload(); } catch (e) { console.error(e); scriptError("onFormUnload", e); }
    }
  });
  fetchState().then(function (first) {
    state = first;
    build();
    return loadScript(state.version);
  }).then(function () {
    loaded = true;
    if (typeof window.onFormLoad === "function") {
      try { window.onFormLoad(); } catch (e) { console.error("onFormLoad threw", e); scriptError("onFormLoad", e); }
    }
    document.body.setAttribute("data-version", state.version);
    document.body.setAttribute("data-ready", "true");
    watch();
  });
  window.__preview = {
    fields: function () { return order.slice(); }, values: function () { return clone(values); }, loaded: function () { return loaded; },
    frame: function () { return customFrame; }, interfaceCall: interfaceCall,
    configsGiven: function () { return configsGiven; },
  };
})();
