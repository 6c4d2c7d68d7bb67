// A game page: send a chosen move with the log length it was chosen on, and reload the page when
// the game's version (its log length) changes. No framework, no build step.
(function () {
  "use strict";
  const root = document.getElementById("game");
  if (!root) return;
  const game = root.dataset.game;
  const seat = root.dataset.seat;
  const token = root.dataset.token;
  const seen = Number(root.dataset.seen);
  const message = document.getElementById("message");

  function newId() {
    const bytes = new Uint8Array(12);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  async function play(action, moveId) {
    for (const button of document.querySelectorAll("button.choice")) button.disabled = true;
    message.textContent = "Sending " + action + " ...";
    const response = await fetch(
      "/api/games/" + encodeURIComponent(game) + "/seats/" + encodeURIComponent(seat) + "/moves",
      {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-Seat-Token": token },
        body: JSON.stringify({ seen: seen, action: action, move_id: moveId }),
      },
    );
    if (response.ok || response.status === 409) {
      location.reload();
      return;
    }
    const body = await response.json().catch(() => ({ detail: response.statusText }));
    message.textContent = body.detail || "the move was refused";
    for (const button of document.querySelectorAll("button.choice")) button.disabled = false;
  }

  for (const button of document.querySelectorAll("button.choice")) {
    button.addEventListener("click", () => play(button.dataset.action, newId()));
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

  async function poll() {
    try {
      const response = await fetch("/api/games/" + encodeURIComponent(game) + "/version");
      if (response.ok) {
        const body = await response.json();
        if (body.log_length !== seen) {
          location.reload();
          return;
        }
      }
    } catch (error) {
      // The server is away for a moment: try again at the next tick.
    }
    setTimeout(poll, 1500);
  }
  setTimeout(poll, 1500);
})();
