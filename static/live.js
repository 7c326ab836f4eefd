// Live updates for the pages, and their command forms posted in place. Without this script every page
// still works by reload, and its forms post as plain forms.
(function () {
  "use strict";
  var body = document.body;
  var pollUrl = body.dataset.poll;         // a live page polls itself (its address without a command)
  var etag = body.dataset.etag || null;    // the version this page shows: a poll answers 304 until it changes
  var interval = Number(body.dataset.interval || 1500);
  var streamUrl = body.dataset.stream;     // server-sent events: "this page's ETag is now ..."
  var safety = Number(body.dataset.safety || 30000);   // a poll this often even with a stream, in case
  var streaming = false;                   // a stream is open and has spoken
  var dirty = new WeakSet();               // forms the player has started to fill in
  var drafts = body.dataset.drafts;        // a phone's game and team: its clue drafts are kept under them

  // A region's HTML without its CSRF tokens (they are re-signed on every page load).
  function comparable(html) { return html.replace(/name="csrf_token" value="[^"]*"/g, ""); }

  // Replace each live region whose server HTML changed, except one holding a form being filled in. The
  // server sends only the regions whose key (what they show) differs from the keys this page sent (`shown`),
  // or, down the stream, from those it last sent; a region held back keeps its old key, and the page fetches
  // it once free (`heldBack`).
  var heldBack = false;
  function apply(html) {
    var fresh = new DOMParser().parseFromString(html, "text/html");
    fresh.querySelectorAll("[data-live]").forEach(function (region) {
      var current = document.getElementById(region.id);
      if (!current) return;
      if (current.dataset.html === comparable(region.innerHTML)) {
        if (region.dataset.key) current.dataset.key = region.dataset.key;
        return;
      }
      if (busy(current) && (current.dataset.task || "") === (region.dataset.task || "")) { heldBack = true; return; }
      if (pressed && current.contains(pressed)) { heldWhilePressed = true; return; }
      // Panels the player opened stay open across updates, and the focus stays on what it was on.
      var opened = Array.prototype.map.call(current.querySelectorAll("details[id][open]"), function (d) { return d.id; });
      var focused = current.contains(document.activeElement) ? what(document.activeElement) : null;
      var writing = current.contains(document.activeElement) ? noteField(document.activeElement) : null;
      var before = current.dataset.task || "";
      replacing = true;                   // the focused field goes: its blur is no player's
      current.innerHTML = region.innerHTML;
      replacing = false;
      opened.forEach(function (id) { var d = document.getElementById(id); if (d) d.open = true; });
      var again = focused && find(current, focused);
      if (again) again.focus({preventScroll: true});
      keepNotes(current, writing);
      current.dataset.html = comparable(region.innerHTML);
      current.dataset.task = region.dataset.task || "";
      if (region.dataset.key) current.dataset.key = region.dataset.key;
      wire(current);
      settle(current);
      startCountdowns(current);
      // Something new to do here (the server marks such a task data-cue): call the player, and bring it into
      // view if the page was scrolled away from it (to the sheets, say).
      if (region.hasAttribute("data-cue") && current.dataset.task !== before) {
        cue();
        var top = current.getBoundingClientRect().top;
        if (top < 0 || top > window.innerHeight * 0.6) current.scrollIntoView({block: "start"});
      }
    });
    keepArmed();
    body.className = fresh.body.className;
    awake();                                // the game may have started or ended
    dropStaleDrafts();
  }

  // A reveal plays its steps once on a screen: shown again by a later update (its region redrawn for something
  // else), it and the tokens it gave stand still. Each is known by its match, round and team (data-reveal).
  var revealed = new Set();
  function settle(root) {
    var marked = root.querySelectorAll("[data-reveal]"), fresh = [];
    marked.forEach(function (el) {
      if (revealed.has(el.dataset.reveal)) el.classList.add("still");
      else fresh.push(el.dataset.reveal);
    });
    fresh.forEach(function (id) { revealed.add(id); });
  }

  // A region the player is pressing in (a finger or the mouse down on it) is replaced only once the press
  // ends: a button or panel replaced between the touch and the release gets no click, so the tap would do
  // nothing. The page then fetches what it held back (without its ETag: the version is the one it shows).
  var pressed = null, heldWhilePressed = false;
  document.addEventListener("pointerdown", function (event) { pressed = event.target; }, true);
  function released() {
    pressed = null;
    if (!heldWhilePressed) return;
    heldWhilePressed = false;
    etag = null;
    poll();
  }
  ["pointerup", "pointercancel"].forEach(function (type) { document.addEventListener(type, released, true); });
  window.addEventListener("blur", released);

  // A region is busy while its player fills in a form: the focus in a field, or a form changed. A focused
  // button or panel is not: the region follows the game (an armed button too, see keepArmed).
  // A region held back while busy is fetched once a field is left (a form sent fetches it by itself).
  document.addEventListener("focusout", function () {
    setTimeout(function () { if (heldBack) poll(true); }, 0);
  });
  function busy(region) {
    var field = document.activeElement;
    return (region.contains(field) && field.matches("input, select, textarea") && !noteField(field)) ||
        Array.prototype.some.call(region.querySelectorAll("form"), function (f) { return dirty.has(f); });
  }

  // What a command's button or a panel's summary does, to find it again in a region's fresh HTML: the button
  // by what it would post and the words it arms with, the summary by its panel.
  function what(el) {
    if (el.matches("details[id] > summary")) return "#" + el.parentNode.id;
    if (!el.matches("form[data-command] button")) return null;
    var data = formBody(el.form, el);
    data.delete("csrf_token");
    return el.form.getAttribute("action") + "?" + data + " " + (el.dataset.confirm || "");
  }

  function find(root, key) {
    return Array.prototype.find.call(root.querySelectorAll("form[data-command] button, details[id] > summary"),
        function (el) { return what(el) === key; });
  }

  // The keys of the live regions this page shows: its fetches send them, and get only the other regions.
  function shown() {
    return Array.prototype.map.call(document.querySelectorAll("[data-live][data-key]"), function (region) {
      return region.dataset.key;
    }).join(" ");
  }

  // An ETag starts with the app's release (companion/release.py): after an upgrade, the page loads anew (its
  // regions, words and script may all have changed), rather than patching in what the new release draws.
  function release(tag) { var found = /^(?:W\/)?"?([0-9a-f]{8})\./.exec(tag || ""); return found && found[1]; }
  function upgraded(tag) { return !!(etag && tag && release(tag) !== release(etag)); }
  // A viewer's version only grows (the ETag's `.v<n>-`): an answer of an older one is not shown over a newer.
  function version(tag) { var found = /\.v(\d+)-/.exec(tag || ""); return found ? Number(found[1]) : -1; }
  function older(tag) { return !!(etag && tag && version(tag) < version(etag)); }

  // Ask for this same page, naming the version shown: 304 while nothing changed, else what changed of the
  // page, whose regions replace ours. One request per poll, and one per change. `whole`: even if its version
  // is the one shown (a region held back while a form in it was busy is now free).
  function refresh(whole) {
    if (whole) heldBack = false;              // what was held back comes with this one
    var h = {"Accept": "text/html", "X-Live-Keys": shown()};
    if (etag && !whole) h["If-None-Match"] = etag;
    return fetch(pollUrl, {headers: h, credentials: "same-origin", cache: "no-store"})
      .then(function (r) {
        if (r.status === 403 || r.status === 404) {
          location.reload();            // the seat moved to another phone, or the game is gone: say so
          return;
        }
        if (r.status !== 200) return;
        if (body.hasAttribute("data-reload")) { location.reload(); return; }   // a waiting page: now let in
        var fresh = r.headers.get("ETag");
        if (upgraded(fresh)) { location.reload(); return; }
        return r.text().then(function (html) {
          // The stream brought a later version while this answer came (its body too): its regions stay.
          if (older(fresh)) return;
          apply(html);
          if (fresh) etag = fresh;
        });
      });
  }

  var timer = null, polling = false, again = false;
  function schedule(ms) { clearTimeout(timer); timer = setTimeout(poll, ms); }
  // The safety poll's delay, a quarter either way: pages that reconnected together (a server restarted)
  // would otherwise all poll in the same instant, every time.
  function safetyDelay() { return safety * (0.75 + Math.random() / 2); }

  var wholeAgain = false;
  function poll(whole) {
    if (polling) {                              // once this one is back, at once again: a change came meanwhile
      again = true;
      wholeAgain = wholeAgain || whole === true;
      return;
    }
    polling = true;
    again = false;
    refresh(whole === true || heldBack)
      .catch(function () {})
      .then(function () {
        polling = false;
        if (again) { var w = wholeAgain; wholeAgain = false; return poll(w); }
        schedule(streaming ? safetyDelay() : document.hidden ? interval * 4 : interval);   // a sleeping phone polls less
      });
  }

  // The stream brings this page what changed as soon as its view changes: the regions its fetch would answer
  // (`page`), or, for a page that is no screen of the game, its new ETag (`view`), and the page fetches itself
  // as a poll does. The browser reconnects by itself, and the stream then starts with the ETag of now, so
  // nothing is missed. Meanwhile, and for good when no message comes through (a proxy that buffers), the
  // page polls as it would without a stream.
  var source = null;                       // the page's stream, while it has one
  function listen() {
    var mine = source = new EventSource(streamUrl), heard = false;
    setTimeout(function () {
      if (!heard) mine.close();              // never spoke: polling it is
    }, 10000);
    mine.addEventListener("view", function (e) {
      heard = streaming = true;
      if (upgraded(e.data)) { location.reload(); return; }
      if (e.data !== etag) poll();
      else if (!polling) schedule(safetyDelay());
    });
    mine.addEventListener("page", function (e) {
      heard = streaming = true;
      var pushed = JSON.parse(e.data);
      if (upgraded(pushed.etag) || body.hasAttribute("data-reload")) { location.reload(); return; }
      apply(pushed.body);
      etag = pushed.etag;
      if (!polling) schedule(safetyDelay());
    });
    mine.addEventListener("gone", function () {
      mine.close();
      location.reload();                   // the seat moved to another phone, or the game is gone: say so
    });
    mine.onerror = function () {
      if (streaming) { streaming = false; schedule(interval); }
      if (mine.readyState === EventSource.CLOSED && heard && mine === source) setTimeout(listen, safetyDelay());
    };
  }

  // What the browser itself would post for this form (its fields, its submit button, a careful button's
  // second tap), urlencoded: the server reads it as it reads the form without this script.
  function formBody(form, submitter, confirmed) {
    var data = new URLSearchParams(new FormData(form));
    if (submitter && submitter.name) data.append(submitter.name, submitter.value);
    if (confirmed) data.set("confirmed", "1");
    return data;
  }

  // A refusal's sentence under its form; after a refresh, under the form that took its place (when only
  // one form on the page posts the same command), else at the top of the page, as the page says it without
  // JavaScript. Returns where it is said.
  function say(form, message) {
    var same = document.querySelectorAll('form[action="' + form.getAttribute("action") + '"]');
    var shown = form.isConnected ? form : same.length === 1 ? same[0] : null;
    var error = shown && shown.querySelector(".form-error");
    if (error) return (error.textContent = message, error);
    var notice = document.getElementById("page-notice"), main = document.querySelector("main");
    if (!notice && main) {
      notice = document.createElement("p");
      notice.id = "page-notice";
      notice.className = "notice error";
      notice.setAttribute("role", "alert");
      main.insertBefore(notice, main.firstChild);
    }
    if (notice) notice.textContent = message;
    return notice;
  }

  // "Your screen was behind the game" explains a tap the page just refused, and the screen already shows the
  // game as it is: the sentence goes once it could be read (~30 words), not with the next change (which may
  // come at once) nor only at the player's next tap (which may come a round later, when it misleads).
  var STALE_MS = 10000;
  function sayForAWhile(form, message) {
    var where = say(form, message);
    setTimeout(function () {
      if (!where || where.textContent !== message) return;     // replaced, or something else said since
      if (where.id === "page-notice") where.remove();
      else where.textContent = "";
    }, STALE_MS);
  }

  // Clues typed but not announced survive a reload: kept in this phone's localStorage only, by game, team,
  // match and round, and dropped once their form is gone (announced, taken over, or the round moved on).
  var DRAFT = "decrypto-clues:";
  function storage() { try { return window.localStorage; } catch (e) { return null; } }
  function draftKey(form) { return DRAFT + drafts + ":" + form.dataset.draft; }

  function keepDraft(form) {
    var saved = storage(), key = draftKey(form), fields = form.querySelectorAll("input[name]:not([type=hidden])");
    if (!saved) return;
    var values = null;
    try { values = JSON.parse(saved.getItem(key)); } catch (e) {}
    if (Array.isArray(values) && values.some(Boolean)) {
      fields.forEach(function (field, i) { if (!field.value && values[i]) field.value = values[i]; });
      dirty.add(form);
    }
    form.addEventListener("input", function () {
      var typed = Array.prototype.map.call(fields, function (field) { return field.value; });
      try { saved.setItem(key, JSON.stringify(typed)); } catch (e) {}
    });
  }

  function dropStaleDrafts() {
    var saved = storage();
    if (!saved || !drafts) return;
    var current = Array.prototype.map.call(document.querySelectorAll("form[data-draft]"), draftKey);
    for (var i = saved.length - 1; i >= 0; i--) {
      var key = saved.key(i);
      if (key && key.indexOf(DRAFT + drafts + ":") === 0 && current.indexOf(key) < 0) saved.removeItem(key);
    }
  }

  // The team's notes (partials/notes.html): each saved as its player types, after a pause or on leaving the
  // field. A region update never holds them back: it brings the teammates' notes, and what this player typed
  // and the team has not got yet is written back over it, with the focus and the caret where they were.
  var NOTE_PAUSE_MS = 700, notes = {};     // a note's key -> {typed: text the team has not got yet, timer, ...}
  var replacing = false;                   // a live region is being replaced (apply)
  function noteOf(key) { return notes[key] || (notes[key] = {}); }
  function noteField(el) {
    var form = el.matches("form.note[data-note] input[name=text]") && el.form;
    return form ? {key: form.dataset.note, start: el.selectionStart, end: el.selectionEnd} : null;
  }
  function noteInput(root, key) {
    return root.querySelector('form.note[data-note="' + key + '"] input[name=text]');
  }

  function keepNotes(root, writing) {
    root.querySelectorAll("form.note[data-note]").forEach(function (form) {
      var note = noteOf(form.dataset.note);
      if (note.typed !== undefined) form.elements.text.value = note.typed;
      if (note.state) form.classList.add(note.state);
    });
    var input = writing && noteInput(root, writing.key);
    if (!input) return;
    input.focus({preventScroll: true});
    try { input.setSelectionRange(writing.start, writing.end); } catch (e) {}
  }

  function showNote(key, state) {
    var note = noteOf(key), input = noteInput(document, key);
    note.state = state;
    if (state === "saved") setTimeout(function () { if (note.state === "saved") showNote(key, null); }, 2000);
    if (!input) return;
    input.form.classList.remove("saving", "saved", "failed");
    if (state) input.form.classList.add(state);
  }

  function saveNote(key) {
    var note = noteOf(key), input = noteInput(document, key);
    clearTimeout(note.timer);
    if (!input || note.typed === undefined) return;
    if (note.sending) { note.again = true; return; }
    var sent = input.value;
    note.sending = true;
    showNote(key, "saving");
    fetch(input.form.getAttribute("action"), {
      method: "POST", credentials: "same-origin", headers: {"Accept": "application/json"}, keepalive: true,
      body: formBody(input.form)
    }).then(function (r) {
      return r.json().then(function (answer) {
        if (!r.ok) throw new Error(answer.error);
        if (note.typed === sent) delete note.typed;        // else typed on meanwhile: saved next
        showNote(key, note.typed === undefined ? "saved" : null);
        poll();
      });
    }).catch(function (e) {
      delete note.typed;                   // refused: the page shows the team's note as it is
      showNote(key, "failed");
      say(input.form, e.message);
    }).then(function () {
      note.sending = false;
      if (note.again) { note.again = false; saveNote(key); }
    });
  }

  function saveNotes() { Object.keys(notes).forEach(saveNote); }

  function wireNote(form) {
    var key = form.dataset.note, input = form.elements.text;
    form.querySelector("button").hidden = true;           // saved as typed
    input.addEventListener("input", function () {
      var note = noteOf(key);
      note.typed = input.value;
      showNote(key, null);
      clearTimeout(note.timer);
      note.timer = setTimeout(function () { saveNote(key); }, NOTE_PAUSE_MS);
    });
    input.addEventListener("change", function () { if (!replacing) saveNote(key); });
    form.addEventListener("submit", function (event) { event.preventDefault(); saveNote(key); });
  }

  function wire(root) {
    root.querySelectorAll("form.note[data-note]").forEach(wireNote);
    if (drafts) root.querySelectorAll("form[data-draft]").forEach(keepDraft);
    root.querySelectorAll("form[data-command]").forEach(function (form) {
      form.addEventListener("input", function () { dirty.add(form); });
      form.addEventListener("change", function () { dirty.add(form); });
      form.addEventListener("submit", function (event) {
        event.preventDefault();
        var careful = event.submitter && event.submitter.dataset.confirm ? event.submitter : null;
        if (careful && !careful.classList.contains("armed")) return arm(careful);
        if (careful) disarm();                          // a tap acts once: refused, it asks again
        if (form.dataset.draft) hideCodes();            // the clues go: heads come up from the phone
        var error = form.querySelector(".form-error");
        var buttons = form.querySelectorAll("button");
        buttons.forEach(function (b) { b.disabled = true; });
        // The form's own post, answered in JSON (the API's answer, or its refusal) instead of a page.
        fetch(form.getAttribute("action"), {
          method: "POST", credentials: "same-origin", headers: {"Accept": "application/json"},
          body: formBody(form, event.submitter, careful !== null)
        }).then(function (r) {
          return r.json().then(function (answer) {
            if (!r.ok) {
              var refused = new Error(answer.error);
              refused.code = answer.code;
              throw refused;
            }
            dirty.delete(form);
            if (form.dataset.draft && storage()) storage().removeItem(draftKey(form));   // announced
            if (error) error.textContent = "";
            var notice = document.getElementById("page-notice");
            if (notice) notice.remove();
            // Done with this form: focus left on its button must not hold its region's updates back.
            if (form.contains(document.activeElement)) document.activeElement.blur();
            // A fix is done: the panel closes and the table screen shows the round again. The panel the
            // page shows now: the table's own update may have replaced the region while the answer came.
            var panel = form.closest("details.host-tools");
            if (panel) {
              panel = document.getElementById(panel.id) || panel;
              panel.open = false;
              if (panel.contains(document.activeElement)) document.activeElement.blur();
              var round = document.getElementById("board");
              if (round) round.scrollIntoView({block: "start"});
            }
            // The stream brings the change itself; a region it held back while the form was busy is fetched.
            if (!streaming || heldBack) return refresh(true);
          });
        }).catch(function (e) {
          if (e.code !== "stale") return say(form, e.message);
          // The page showed something that has changed since: show what is current, then say why.
          dirty.delete(form);
          if (form.contains(document.activeElement)) document.activeElement.blur();
          return refresh(true).catch(function () {}).then(function () { sayForAWhile(form, e.message); });
        }).then(function () { buttons.forEach(function (b) { b.disabled = false; }); });
      });
    });
    root.querySelectorAll("details.secret").forEach(peekable);
  }

  // The Encryptor's code shows only while it is looked at: while the summary is held down, or for a few
  // seconds after a tap (wherever the focus goes meanwhile), its label counting down; a second tap hides it.
  // A press is read from its pointer events alone: the box shrinks under the finger as the code shows, so
  // the click ending it may land on the code, or nowhere; a click ending no press is a key's or a screen
  // reader's. The page's own toggling is replaced, so focus, typing or a live update never keeps it open.
  var PEEK_SECONDS = 5, HOLD_MS = 500;
  function peekable(details) {
    var summary = details.querySelector("summary"), label = summary.querySelector(".to-hide");
    var press = null, pressed = false, deadline = 0, timer = null;
    function hiding(seconds) { label.textContent = details.dataset.hiding.replace("{s}", seconds); }
    function countdown() {
      clearTimeout(timer);
      var left = Math.ceil((deadline - Date.now()) / 1000);
      if (left <= 0 || !details.open || !details.isConnected) return hide();
      hiding(left);
      timer = setTimeout(countdown, 250);
    }
    function peek() { details.open = true; deadline = Date.now() + PEEK_SECONDS * 1000; countdown(); }
    function hide() { clearTimeout(timer); press = null; details.open = false; }
    summary.addEventListener("pointerdown", function (event) {
      if (!event.isPrimary || event.button > 0) return;
      summary.setPointerCapture(event.pointerId);             // its release comes here, wherever it happens
      clearTimeout(timer);
      var mine = press = {wasOpen: details.open, at: Date.now()};
      pressed = true;
      details.open = true;
      hiding(PEEK_SECONDS);                                   // a tap, most likely; still down later: a hold
      setTimeout(function () { if (press === mine) label.textContent = details.dataset.held; }, HOLD_MS);
    });
    summary.addEventListener("pointerup", function () {
      if (!press) return;
      var tap = Date.now() - press.at < HOLD_MS && !press.wasOpen;
      press = null;
      if (tap) peek(); else hide();
    });
    summary.addEventListener("pointercancel", hide);          // the press became a scroll
    summary.addEventListener("lostpointercapture", function () { if (press) hide(); });   // nor up nor cancel
    summary.addEventListener("contextmenu", function (event) { event.preventDefault(); });   // a long press
    details.addEventListener("click", function (event) {
      var mine = summary.contains(event.target);
      if (mine) event.preventDefault();
      var ending = pressed && event.detail > 0;              // a press's click (a key's counts 0), read above
      pressed = false;
      if (ending) return;
      if (mine && details.open) hide();
      else if (mine) peek();
    });
  }

  // Closes each code; a countdown or a hold in progress then ends by itself.
  function hideCodes() {
    document.querySelectorAll("details.secret").forEach(function (d) { d.open = false; });
  }

  // "Cover my screen": the keywords (and the code) covered by one tap, uncovered by another; covered too
  // whenever the page is hidden (phone locked, another app), so it comes back covered. The state is a class
  // on <html>, which live updates never replace. This tab remembers it (sessionStorage) for a page that
  // loads again: covered after it was hidden (a phone may discard a hidden page and reload it on return),
  // but as the player chose when they reload or leave it themselves.
  var coverSwitch = document.querySelector("[data-cover]"), COVERED = "decrypto-covered";
  var chosen = false, leaving = false;
  function cover(on) {
    document.documentElement.classList.toggle("covered", on);
    coverSwitch.setAttribute("aria-pressed", on ? "true" : "false");
    if (on) hideCodes();
  }
  function remember(on) {
    try { on ? sessionStorage.setItem(COVERED, "1") : sessionStorage.removeItem(COVERED); } catch (e) {}
  }
  if (coverSwitch) {
    try { chosen = sessionStorage.getItem(COVERED) === "1"; } catch (e) {}
    cover(chosen);
    coverSwitch.hidden = false;                                // useless without this script
    coverSwitch.addEventListener("click", function () {
      chosen = coverSwitch.getAttribute("aria-pressed") !== "true";
      cover(chosen);
      remember(chosen);
    });
  }
  function pageHidden() {
    hideCodes();
    if (!coverSwitch) return;
    cover(true);
    remember(leaving ? chosen : true);
  }
  // Leaving the page (a reload, a link; browsers fire this before or after visibilitychange): covered if it
  // comes back from the back-forward cache, as chosen if it loads again.
  window.addEventListener("pagehide", function () { leaving = true; pageHidden(); saveNotes(); });
  // A page restored from the back-forward cache shows what it showed when it was left (Back, Forward, a
  // phone's back gesture): it brings itself up to date at once. A live page fetches itself and listens
  // again; a page with a form to post (joining, a seat link) loads again, and leads where the phone is now.
  window.addEventListener("pageshow", function (event) {
    leaving = false;
    if (!event.persisted) return;
    if (!pollUrl) {
      if (document.querySelector("form[method=post]")) location.reload();
      return;
    }
    poll();
    if (streamUrl && window.EventSource && (!source || source.readyState === EventSource.CLOSED)) listen();
  });

  // A careful host button takes two taps: the first makes it say what it will do, for a few seconds. One at
  // a time. A live update keeps it armed only if the same button comes back (`what`: the same command, target
  // and words), so a second tap never acts on a player or a step other than the one it named.
  var ARMED_MS = 4000, armed = null;
  function arm(button, until) {
    disarm();
    armed = {button: button, key: what(button), label: button.textContent, until: until || Date.now() + ARMED_MS};
    armed.timer = setTimeout(disarm, armed.until - Date.now());
    button.textContent = button.dataset.confirm;
    button.classList.add("armed");
  }
  function disarm() {
    if (!armed) return;
    clearTimeout(armed.timer);
    armed.button.textContent = armed.label;
    armed.button.classList.remove("armed");
    armed = null;
  }
  function keepArmed() {
    if (!armed || armed.button.isConnected) return;
    var same = find(document, armed.key), until = armed.until;
    disarm();
    if (same) arm(same, until);
  }

  // The sand timer: each [data-countdown] counts down from the seconds left when its HTML was made (a paused
  // one has none: the server sends it again, with its time left, once the table resumes it).
  // One marked data-cue="<its round and team>" calls this screen's player when it runs out here, once.
  // At zero the table screen's controls beside it go (their slots stay): there is nothing left to act on.
  // One marked data-ask (a waiting new phone's, pages/seat.html) has the page ask for itself when it runs out:
  // the server, by its own clock, lets the phone in then (or answers a later time), and asks again a while
  // after, until the page changes. The time comes from the server only; this counts the seconds it gave.
  var timersCued = {};
  function askUntilChanged(el) {
    if (!el.isConnected) return;
    poll();
    setTimeout(function () { askUntilChanged(el); }, interval * 2);
  }
  function startCountdowns(root) {
    root.querySelectorAll("[data-countdown]").forEach(function (el) {
      var clock = el.querySelector("[data-clock]");
      var deadline = Date.now() + Number(el.dataset.countdown) * 1000;
      var running = Number(el.dataset.countdown) > 0;
      var row = el.closest(".timer-row");
      var controls = row ? row.querySelectorAll(".timer-control") : [];
      function tick() {
        if (!el.isConnected) return;
        var left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
        if (left === 0) {
          el.classList.add("up");
          el.textContent = el.dataset.upText;
          controls.forEach(function (control) {  // every control of the timer: none acts once it is up
            control.classList.add("spent");
            control.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
          });
          if (running && el.dataset.cue && !timersCued[el.dataset.cue]) {
            timersCued[el.dataset.cue] = true;
            cue();
          }
          if (el.hasAttribute("data-ask") && pollUrl) askUntilChanged(el);
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

  // Keep the screen awake during a game: the Screen Wake Lock where the browser has it (secure pages
  // only), else the technique of NoSleep.js (github.com/richtr/NoSleep.js, MIT): a muted, looping,
  // inline video, loaded in a game once the player has tapped the page. Chrome keeps the screen on for a
  // muted video only while it is on screen and big, so it covers the page, transparent (app.css).
  // static/awake.webm and .mp4 are 1 s of black at 10 frames/s (one frame alone never plays), made once:
  //   ffmpeg -f lavfi -i color=c=black:s=16x16:r=10:d=1 -map_metadata -1 -c:v libvpx -b:v 1k awake.webm
  //   ffmpeg -f lavfi -i color=c=black:s=16x16:r=10:d=1 -map_metadata -1 -c:v libx264 -tune stillimage
  //          -pix_fmt yuv420p -bsf:v filter_units=remove_types=6 -movflags +faststart awake.mp4
  var lock = null, requesting = false, tapped = false, video = null;
  function awake() {
    var wanted = body.classList.contains("in-game") && !document.hidden;
    if ("wakeLock" in navigator) {
      if (wanted && !lock && !requesting) {
        requesting = true;
        navigator.wakeLock.request("screen").then(function (sentinel) {
          requesting = false;
          lock = sentinel;                   // the browser lets go of it when the page is hidden
          sentinel.addEventListener("release", function () { if (lock === sentinel) lock = null; });
          awake();                           // the game may have ended meanwhile
        }, function () { requesting = false; });
      } else if (!wanted && lock) {
        lock.release().catch(function () {});
        lock = null;
      }
    } else if (tapped && body.dataset.awake) {
      if (wanted && !video) video = awakeVideo();
      if (wanted) video.play().catch(function () {});
      else if (video) video.pause();
    }
    askForTap();
  }

  // A phone's page needs one tap before it may play the fallback video or the cue's sound: during a game,
  // it asks for that tap (a card that says what for), only where something needs it; not in a try-out,
  // whose one player taps from seat to seat.
  var tapCard = document.querySelector("[data-tap-card]");
  function askForTap() {
    if (!tapCard) return;
    var asking = !tapped && body.classList.contains("in-game") && !body.classList.contains("try-out");
    var needs = !asking ? [] : [
      !("wakeLock" in navigator) && body.dataset.awake ? "awake" : "",
      soundSwitch && soundSwitch.checked ? "sound" : ""].filter(Boolean);
    if (needs.length) {
      tapCard.hidden = false;
      tapCard.style.visibility = "";
      tapCard.textContent = tapCard.getAttribute("data-ask-" + needs.join("-"));
    } else if (!tapCard.hidden) {
      tapCard.style.visibility = "hidden";      // its place stays: nothing moves under the finger that tapped
    }
  }

  function awakeVideo() {
    var v = document.createElement("video");
    v.muted = v.loop = v.playsInline = true;
    v.setAttribute("playsinline", "");
    v.setAttribute("aria-hidden", "true");
    v.disablePictureInPicture = v.disableRemotePlayback = true;      // nothing to offer the player
    v.className = "awake";
    body.dataset.awake.split(" ").forEach(function (src) {
      var source = document.createElement("source");
      source.src = src;
      source.type = "video/" + src.split("?")[0].split(".").pop();
      v.appendChild(source);
    });
    return body.appendChild(v);
  }

  // The first tap lets the page play media: the fallback video, the cue's sound and vibration.
  document.addEventListener("click", function () {
    tapped = true;
    if (soundSwitch) sound();
    awake();
  }, {capture: true, once: true});

  document.addEventListener("visibilitychange", function () {
    if (document.hidden) { pageHidden(); saveNotes(); }
    awake();
    if (!document.hidden && pollUrl) schedule(0);              // catch up at once on waking
  });

  // The cue: a short chime and a buzz when this screen gets something to do, unless switched off.
  // Phones have it on until muted, the table screen off until the host turns it on (remembered here).
  var soundSwitch = document.querySelector("[data-sound]"), audio = null;
  function remembered(value) {
    var key = "decrypto-sound-" + soundSwitch.dataset.sound;
    try {
      if (value === undefined) return localStorage.getItem(key);
      localStorage.setItem(key, value);
    } catch (e) { return null; }           // storage refused: the switch still works on this page
  }
  if (soundSwitch) {
    var saved = remembered();
    if (saved) soundSwitch.checked = saved === "on";
    soundSwitch.addEventListener("change", function () {
      remembered(soundSwitch.checked ? "on" : "off");
      if (soundSwitch.checked) sound();
    });
    soundSwitch.closest(".sound-switch").hidden = false;       // useless without this script
  }

  function sound() {
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!audio && Context) audio = new Context();
    if (audio && audio.state === "suspended") audio.resume().catch(function () {});
    return audio;
  }

  function cue() {
    if (!soundSwitch || !soundSwitch.checked) return;
    var tappedHere = navigator.userActivation ? navigator.userActivation.hasBeenActive : tapped;
    if (navigator.vibrate && tappedHere) navigator.vibrate([120, 80, 120]);   // else refused, with an error
    var ctx = sound();
    if (!ctx) return;
    [660, 880].forEach(function (pitch, i) {                   // two rising notes, 0.15 s each
      var start = ctx.currentTime + i * 0.16, tone = ctx.createOscillator(), level = ctx.createGain();
      tone.frequency.value = pitch;
      level.gain.setValueAtTime(0.0001, start);
      level.gain.exponentialRampToValueAtTime(0.3, start + 0.02);
      level.gain.exponentialRampToValueAtTime(0.0001, start + 0.15);
      tone.connect(level).connect(ctx.destination);
      tone.start(start);
      tone.stop(start + 0.16);
    });
  }

  document.querySelectorAll("[data-live]").forEach(function (region) {
    region.dataset.html = comparable(region.innerHTML);
  });
  wire(document);
  settle(document);
  dropStaleDrafts();
  startCountdowns(document);
  awake();
  if (pollUrl) poll();
  if (streamUrl && window.EventSource) listen();
})();
