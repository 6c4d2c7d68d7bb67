// A game page: send a chosen move (or an undo) with the game's version it was chosen on, and keep
// the page current through the server's live stream (server-sent events): when the version
// changes, fetch the page's body again and swap it in, without reloading. No framework, no build.
(function () {
  "use strict";
  const root = document.getElementById("game");
  if (!root) return;
  const game = root.dataset.game;
  const seat = root.dataset.seat;
  const token = root.dataset.token;
  const message = document.getElementById("message");
  const live = document.getElementById("live");
  const gamePath = "/api/games/" + encodeURIComponent(game);
  const seatPath = gamePath + "/seats/" + encodeURIComponent(seat);
  const pageUrl = seat
    ? "/g/" + encodeURIComponent(game) + "/" + encodeURIComponent(seat) + "?token=" + encodeURIComponent(token) + "&part=body"
    : "/g/" + encodeURIComponent(game) + "?part=body";

  function body() {
    return document.getElementById("game-body");
  }

  function version() {
    return Number(body().dataset.version);
  }

  function newId() {
    const bytes = new Uint8Array(12);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  function setButtons(disabled) {
    for (const button of body().querySelectorAll("button")) button.disabled = disabled;
  }

  // Fetch the page's body for the game as it is now and swap it in, one refresh at a time. A
  // version announced meanwhile triggers one more only if the fresh body is not already at it
  // (each fetch moves the seat's "last seen" mark, so a needless one would empty "since you were
  // last here" right after showing it).
  let refreshing = null;
  let wanted = null;
  async function refresh(target) {
    if (refreshing) {
      wanted = target === undefined ? -1 : target;
      return refreshing;
    }
    refreshing = (async () => {
      for (;;) {
        wanted = null;
        const response = await fetch(pageUrl, { cache: "no-store" });
        if (!response.ok) {
          message.textContent = "Could not load the game: " + response.status;
          break;
        }
        const holder = document.createElement("div");
        holder.innerHTML = await response.text();
        const fresh = holder.querySelector("#game-body");
        if (fresh) {
          body().replaceWith(fresh);
          bind();
          showArea(selected, true);
        }
        if (wanted === null || wanted === version()) break;
      }
    })();
    try {
      await refreshing;
    } finally {
      refreshing = null;
    }
  }

  async function send(path, payload, what) {
    setButtons(true);
    message.textContent = "Sending " + what + " ...";
    const response = await fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Seat-Token": token },
      body: JSON.stringify(payload),
    });
    const answer = await response.json().catch(() => ({ detail: response.statusText }));
    if (response.ok) {
      message.textContent = answer.undone ? "Undone: " + answer.undone : "";
      await refresh(answer.version);
      return;
    }
    message.textContent = answer.detail || "refused";
    if (response.status === 409) {
      await refresh();
      return;
    }
    setButtons(false);
  }

  function bind() {
    for (const button of body().querySelectorAll("button.choice")) {
      button.addEventListener("click", () =>
        send(seatPath + "/moves", { seen: version(), action: button.dataset.action, move_id: newId() }, button.dataset.action),
      );
    }
    const undo = body().querySelector("#undo");
    if (undo) undo.addEventListener("click", () => send(seatPath + "/undo", { seen: version() }, "undo"));
    const zoom = body().querySelector("#map-zoom");
    if (zoom) {
      showZoom(zoom);
      zoom.addEventListener("click", () => {
        zoomed = !zoomed;
        showZoom(zoom);
      });
    }
  }
  // The A&A board fits the page; "Zoom in" widens it (the page scrolls sideways), and stays so
  // over the live body swaps.
  let zoomed = false;
  function showZoom(button) {
    const map = body().querySelector("#map");
    if (map) map.classList.toggle("zoomed", zoomed);
    button.textContent = zoomed ? "Fit to page" : "Zoom in";
    button.setAttribute("aria-pressed", String(zoomed));
  }
  bind();

  // The map's areas: a click on an area (its shape or a unit in it) opens its facts in the side
  // panel, fetched from the server as escaped HTML; the panel stays open, and is fetched again,
  // when the body is swapped for a newer position.
  const areaPanel = document.getElementById("area-panel");
  const areaFacts = document.getElementById("area-facts");
  let selected = null;
  function markSelected() {
    for (const old of body().querySelectorAll("#map .selected")) old.classList.remove("selected");
    if (!selected) return;
    const name = CSS.escape(selected);
    for (const shape of body().querySelectorAll(`#map rect[data-area="${name}"], #map ellipse[data-area="${name}"]`)) {
      shape.classList.add("selected");
    }
  }
  async function showArea(name, quiet) {
    if (!areaPanel || !name) return;
    selected = name;
    markSelected();
    let url = gamePath + "/areas/" + encodeURIComponent(name) + "?format=html";
    if (seat) url += "&seat=" + encodeURIComponent(seat);
    const response = await fetch(url, { cache: "no-store", headers: seat ? { "X-Seat-Token": token } : {} });
    if (name !== selected) return; // another area was clicked meanwhile
    if (!response.ok) {
      if (quiet) return;
      const answer = await response.json().catch(() => ({ detail: response.statusText }));
      areaFacts.textContent = answer.detail || "no such area";
    } else {
      areaFacts.innerHTML = await response.text(); // the server escaped every text in it
    }
    areaPanel.hidden = false;
  }
  if (areaPanel) {
    document.addEventListener("click", (event) => {
      const target = event.target instanceof Element ? event.target.closest("#map [data-area], #area-facts a.area-link") : null;
      if (!target) return;
      event.preventDefault();
      showArea(target.getAttribute("data-area"), false);
    });
    document.getElementById("area-close").addEventListener("click", () => {
      selected = null;
      areaPanel.hidden = true;
      markSelected();
    });
  }

  // The live stream: the server sends the game's version at once and after every change. The
  // browser reconnects a broken stream by itself; a refused one (e.g. too many pages open) is
  // tried again after a pause.
  function connect() {
    const url = gamePath + "/events" + (seat ? "?seat=" + encodeURIComponent(seat) + "&token=" + encodeURIComponent(token) : "");
    const source = new EventSource(url);
    source.addEventListener("open", () => {
      live.textContent = "Live: others' moves appear here as they are made.";
    });
    source.addEventListener("version", (event) => {
      const data = JSON.parse(event.data);
      // A new position, or a person changed their name (the names' digest differs).
      if (data.version !== version() || data.seats_tag !== body().dataset.seatsTag) refresh(data.version);
    });
    source.addEventListener("gone", (event) => {
      const data = JSON.parse(event.data);
      source.close();
      setButtons(true);
      live.textContent = "This game is no longer on the server (" + (data.detail || "removed") + ").";
    });
    source.addEventListener("error", () => {
      live.textContent = "Live updates: reconnecting…";
      if (source.readyState === EventSource.CLOSED) setTimeout(connect, 5000);
    });
  }
  connect();

  // The seat's own name: saved with the seat's token; every page of the game shows it live.
  const nameForm = document.getElementById("name-form");
  if (nameForm) {
    nameForm.addEventListener("submit", async (event) => {
      event.preventDefault();
      const input = document.getElementById("name-input");
      const response = await fetch(seatPath + "/name", {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-Seat-Token": token },
        body: JSON.stringify({ name: input.value }),
      });
      const answer = await response.json().catch(() => ({ detail: response.statusText }));
      if (!response.ok) {
        message.textContent = answer.detail || "the name was refused";
        return;
      }
      input.value = answer.name || "";
      message.textContent = answer.name ? "Your name is now " + answer.name + "." : "Your name is cleared.";
      const mine = document.getElementById("my-name");
      if (mine) mine.textContent = answer.name ? " — " + answer.name : "";
      await refresh();
    });
  }

  // The rules box: the assistant's answer (its fact, then the section) for this game's situation.
  const rulesForm = document.getElementById("rules-form");
  if (rulesForm) {
    rulesForm.addEventListener("submit", async (event) => {
      event.preventDefault();
      const box = document.getElementById("rules-answer");
      const question = document.getElementById("rules-q").value;
      const url = "/api/rules?q=" + encodeURIComponent(question) + "&game=" + encodeURIComponent(game);
      const response = await fetch(url);
      const body = await response.json().catch(() => ({ detail: response.statusText }));
      box.replaceChildren();
      if (!response.ok) {
        box.textContent = body.detail || "the question was refused";
        return;
      }
      const best = (body.answers || [])[0];
      if (!best) {
        box.textContent = body.note || "The rules do not seem to cover that question.";
        return;
      }
      const fact = document.createElement("p");
      fact.textContent = body.fact || "";
      const title = document.createElement("p");
      const strong = document.createElement("strong");
      strong.textContent = "LR " + best.section + " " + best.title;
      title.appendChild(strong);
      const summary = document.createElement("p");
      summary.textContent = best.summary;
      box.append(fact, title, summary);
    });
  }
})();
