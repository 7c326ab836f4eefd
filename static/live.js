// Live updates and the JSON API for the pages. Without this script every page still works by reload.
(function () {
  "use strict";
  var body = document.body;
  var pollUrl = body.dataset.poll;         // a live page polls itself (its address without a command)
  var token = body.dataset.token;          // table screen and spectator only; phones use their cookie
  var csrf = document.querySelector('meta[name="csrf-token"]');
  var etag = body.dataset.etag || null;    // the version this page shows: a poll answers 304 until it changes
  var interval = Number(body.dataset.interval || 1500);
  var dirty = new WeakSet();               // forms the player has started to fill in

  // A region's HTML without its CSRF tokens (they are re-signed on every page load).
  function comparable(html) { return html.replace(/name="csrf_token" value="[^"]*"/g, ""); }

  function headers(extra) {
    var h = Object.assign({"Accept": "application/json"}, extra || {});
    if (token) h["Authorization"] = "Bearer " + token;
    else if (csrf) h["X-CSRFToken"] = csrf.content;
    return h;
  }

  // Replace each live region whose server HTML changed, except one holding a form being filled in.
  function apply(html) {
    var fresh = new DOMParser().parseFromString(html, "text/html");
    fresh.querySelectorAll("[data-live]").forEach(function (region) {
      var current = document.getElementById(region.id);
      if (!current || current.dataset.html === comparable(region.innerHTML)) return;
      var busy = current.querySelector("form") && (current.contains(document.activeElement) ||
          Array.prototype.some.call(current.querySelectorAll("form"), function (f) { return dirty.has(f); }));
      if (busy && (current.dataset.task || "") === (region.dataset.task || "")) return;
      // Panels the player opened stay open across updates.
      var opened = Array.prototype.map.call(current.querySelectorAll("details[id][open]"), function (d) { return d.id; });
      current.innerHTML = region.innerHTML;
      opened.forEach(function (id) { var d = document.getElementById(id); if (d) d.open = true; });
      current.dataset.html = comparable(region.innerHTML);
      current.dataset.task = region.dataset.task || "";
      wire(current);
      startCountdowns(current);
    });
    body.className = fresh.body.className;
  }

  // Ask for this same page, naming the version shown: 304 while nothing changed, else the new page,
  // whose changed regions replace ours. One request per poll, and one per change.
  function refresh() {
    var h = {"Accept": "text/html"};
    if (etag) h["If-None-Match"] = etag;
    return fetch(pollUrl, {headers: h, credentials: "same-origin", cache: "no-store"})
      .then(function (r) {
        if (r.status === 403 || r.status === 404) {
          location.reload();            // the seat moved to another phone, or the game is gone: say so
          return;
        }
        if (r.status !== 200) return;
        var fresh = r.headers.get("ETag");
        return r.text().then(function (html) {
          apply(html);
          if (fresh) etag = fresh;
        });
      });
  }

  var timer = null, polling = false;
  function schedule(ms) { clearTimeout(timer); timer = setTimeout(poll, ms); }

  function poll() {
    if (polling) return;
    polling = true;
    refresh()
      .catch(function () {})
      .then(function () {
        polling = false;
        schedule(document.hidden ? interval * 4 : interval);   // a sleeping phone polls less
      });
  }

  // A form's fields as the API's JSON body: data-key names a list field, data-type casts values.
  function formJson(form, submitter) {
    var data = {};
    function put(key, value, list) {
      var parts = key.split("."), target = data;
      while (parts.length > 1) { var p = parts.shift(); target = target[p] = target[p] || {}; }
      if (list) (target[parts[0]] = target[parts[0]] || []).push(value);
      else target[parts[0]] = value;
    }
    function cast(el, value) {
      if (el.dataset.type === "int") return value === "" ? null : Number(value);
      if (el.dataset.type === "bool") return value === true || value === "1";
      return value;
    }
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name || el.disabled || el.type === "submit") return;
      var key = el.dataset.key || el.name, list = el.dataset.list !== undefined;
      if (el.type === "radio") { if (el.checked) put(key, cast(el, el.value), list); return; }
      if (el.type === "checkbox") { put(key, el.checked, list); return; }
      put(key, cast(el, el.value), list);
    });
    if (submitter && submitter.name) put(submitter.name, cast(submitter, submitter.value), false);
    return data;
  }

  function wire(root) {
    root.querySelectorAll("form[data-api]").forEach(function (form) {
      form.addEventListener("input", function () { dirty.add(form); });
      form.addEventListener("change", function () { dirty.add(form); });
      form.addEventListener("submit", function (event) {
        event.preventDefault();
        var careful = event.submitter && event.submitter.dataset.confirm ? event.submitter : null;
        if (careful && !careful.classList.contains("armed")) return arm(careful);
        var error = form.querySelector(".form-error");
        var buttons = form.querySelectorAll("button");
        buttons.forEach(function (b) { b.disabled = true; });
        fetch(form.dataset.api, {
          method: "POST", credentials: "same-origin",
          headers: headers({"Content-Type": "application/json"}),
          body: JSON.stringify(formJson(form, event.submitter))
        }).then(function (r) {
          return r.json().then(function (answer) {
            if (!r.ok) throw new Error(answer.error);
            dirty.delete(form);
            if (error) error.textContent = "";
            // Done with this form: focus left on its button must not hold its region's updates back.
            if (form.contains(document.activeElement)) document.activeElement.blur();
            // A fix is done: the panel closes and the table screen shows the round again.
            var panel = form.closest("details.host-tools");
            if (panel) {
              panel.open = false;
              if (panel.contains(document.activeElement)) document.activeElement.blur();
              var round = document.getElementById("board");
              if (round) round.scrollIntoView({block: "start"});
            }
            return refresh();
          });
        }).catch(function (e) {
          if (error) error.textContent = e.message;
        }).then(function () { buttons.forEach(function (b) { b.disabled = false; }); });
      });
    });
    // The Encryptor's code hides again by itself, so a glance at the table never catches it.
    root.querySelectorAll("details.secret").forEach(function (details) {
      function hideWhenIdle() {
        if (!details.open) return;
        var form = details.querySelector("form");
        if (details.contains(document.activeElement) || (form && dirty.has(form))) setTimeout(hideWhenIdle, 8000);
        else details.open = false;
      }
      details.addEventListener("toggle", function () { if (details.open) setTimeout(hideWhenIdle, 8000); });
    });
  }

  // A careful host button takes two taps: the first makes it say what it will do, for a few seconds.
  function arm(button) {
    var label = button.textContent;
    button.textContent = button.dataset.confirm;
    button.classList.add("armed");
    setTimeout(function () {
      if (!button.isConnected || !button.classList.contains("armed")) return;
      button.textContent = label;
      button.classList.remove("armed");
    }, 4000);
  }

  // The sand timer: each [data-countdown] counts down from the seconds left when its HTML was made.
  function startCountdowns(root) {
    root.querySelectorAll("[data-countdown]").forEach(function (el) {
      var clock = el.querySelector("[data-clock]");
      var deadline = Date.now() + Number(el.dataset.countdown) * 1000;
      function tick() {
        if (!el.isConnected) return;
        var left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
        if (left === 0) {
          el.classList.add("up");
          el.textContent = el.dataset.upText;
          return;
        }
        if (clock) clock.textContent = Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0");
        setTimeout(tick, 250);
      }
      tick();
    });
  }

  document.addEventListener("click", function (event) {
    if (event.target.closest("[data-print]")) window.print();
  });

  // Keep the screen awake during a game where the browser allows it.
  var wakeLock = null;
  function keepAwake() {
    if (!("wakeLock" in navigator) || !body.classList.contains("in-game") || document.hidden) return;
    navigator.wakeLock.request("screen").then(function (lock) { wakeLock = lock; }).catch(function () {});
  }
  document.addEventListener("visibilitychange", function () {
    keepAwake();
    if (!document.hidden && pollUrl) schedule(0);              // catch up at once on waking
  });

  document.querySelectorAll("[data-live]").forEach(function (region) {
    region.dataset.html = comparable(region.innerHTML);
  });
  wire(document);
  startCountdowns(document);
  keepAwake();
  if (pollUrl) poll();
})();
