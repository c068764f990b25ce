/* iparams-lint preview: the client of an installation page (docs/preview.md), in plain JavaScript.
 * The generated page builds its client with `window.iparamsPreview.client`; a custom page
 * (config/iparams.html, in the frame of the preview's page) loads this file where it loads the
 * vendor's client, and gets `app.initialized()` from it. Template calls are made by the preview
 * server, which holds the secure values; product data is sample data. */
"use strict";
(function () {
  var BASE = "/custom_configs";

  function post(path, body) {
    return fetch(BASE + "/" + path, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
    }).then(function (r) { return r.json().then(function (json) { return { status: r.status, json: json }; }); });
  }

  function answered(r) {
    var a = r.json || {};
    var answer = { status: a.status, headers: a.headers || {}, response: a.response === undefined ? "" : a.response };
    if (a.ok) return answer;
    answer.message = a.message || ("HTTP " + a.status);
    throw answer;
  }

  /** `client.request`: templates, and the request API before platform 2.3, carried out by the
   * server with `values()` (the page's current values) and the stored secure ones. */
  function request(values) {
    function legacy(method) {
      return function (url, options) {
        return post("request", { method: method, url: String(url), options: options || {}, values: values() }).then(answered);
      };
    }
    return {
      invokeTemplate: function (name, options) {
        return post("invoke", { name: name, options: options || {}, values: values() }).then(answered);
      },
      get: legacy("get"), post: legacy("post"), put: legacy("put"), delete: legacy("delete"), patch: legacy("patch"),
    };
  }

  /** What a call the preview does not know answers: a rejection that names the call. */
  function unknownCall(path) {
    return function () {
      var message = path + "() is not available in the iparams-lint preview of an installation page";
      console.warn(message);
      return Promise.reject({ message: message });
    };
  }

  /** `object`, where any other member (at any depth) is a call that rejects naming itself. */
  function knowing(object, path) {
    return new Proxy(object, {
      get: function (target, name) {
        if (typeof name !== "string" || name in target || name === "then" || name === "toJSON") return target[name];
        return knowing(unknownCall(path + "." + name), path + "." + name);
      },
    });
  }

  /** Sample product data for `client.data.get(name)`, resolved as `{name: value}`. */
  function samples(product, domainName) {
    var user = { id: 1, name: "Sample Agent", email: "agent@" + domainName, contact: { name: "Sample Agent", email: "agent@" + domainName, language: "en", time_zone: "UTC" } };
    var host = {};
    host[product] = "https://" + domainName;
    return {
      loggedInUser: user,
      domainName: domainName,
      account: { id: 1, name: "Acme (sample account)", product: product },
      currentHost: { subscribed_modules: [], endpoint_urls: host },
    };
  }

  /** `client.data`: `get(name)` of the sample data, which rejects naming what it has for a
   * name it does not know. */
  function sampleData(product, domainName) {
    var data = samples(product, domainName);
    return knowing({
      get: function (name) {
        if (!Object.prototype.hasOwnProperty.call(data, name)) {
          return Promise.reject({ message: "client.data.get(" + JSON.stringify(name) + "): the preview has no sample of it; it has " + Object.keys(data).join(", ") });
        }
        var answer = {};
        answer[name] = JSON.parse(JSON.stringify(data[name]));
        return Promise.resolve(answer);
      },
    }, "client.data");
  }

  /** The client of a custom page: `request` with the stored values, `iparams.get` (the stored
   * values but the secure ones), `data.get` of sample data, `interface.trigger` (shown by the
   * preview's page), `instance.context()`, `context`; anything else rejects naming itself. */
  function customClient(state, shell) {
    var product = (state.products || [])[0] || "freshdesk";
    var context = { location: "installation_page", product: product, productContext: { name: product, url: "https://" + state.domain_name } };
    context.get = function () { return Promise.resolve({ location: context.location, product: product }); };
    var client = {
      context: context,
      // The server fills iparams from the stored values (it does not know the page's fields).
      request: knowing(request(function () { return {}; }), "client.request"),
      iparams: knowing({
        get: function (key) {
          return fetch(BASE + "/fetch").then(function (r) { return r.json(); }).then(function (f) {
            var values = f.values || {};
            if (key === undefined) return values;
            var one = {};
            if (key in values) one[key] = values[key];
            return one;
          });
        },
      }, "client.iparams"),
      data: sampleData(product, state.domain_name),
      interface: knowing({
        trigger: function (action, options) {
          if (shell && typeof shell.interfaceCall === "function") shell.interfaceCall(String(action), options);
          return Promise.resolve({ action: action, shown: true });
        },
      }, "client.interface"),
      instance: knowing({
        context: function () { return Promise.resolve({ instanceId: "installation_page", location: "installation_page", parentId: null, data: {} }); },
      }, "client.instance"),
    };
    return knowing(client, "client");
  }

  window.iparamsPreview = { post: post, request: request, knowing: knowing, sampleData: sampleData };

  // In a custom page's frame: `app.initialized()` resolves once the app's products are known
  // and the shell has given the page its stored values (getConfigs), or after a few seconds
  // when the page never finishes loading (a script that waits for the client first).
  if (window.location.pathname === BASE + "/form") {
    var shell = window.parent !== window && window.parent.__preview ? window.parent.__preview : null;
    var given = shell && typeof shell.configsGiven === "function" ? shell.configsGiven() : Promise.resolve();
    var patience = new Promise(function (resolve) { setTimeout(resolve, 3000); });
    var ready = Promise.all([
      fetch(BASE + "/state").then(function (r) { return r.json(); }),
      Promise.race([given, patience]),
    ]).then(function (both) {
      return customClient(both[0], shell);
    });
    window.app = { initialized: function () { return ready; } };
  }
})();
