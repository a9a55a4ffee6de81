import { redirect } from "react-router";
import { describe, expect, it } from "vitest";
import { AppError, type ErrorCode } from "~/lib/errors";
import type { FormResult } from "~/lib/forms";
import { bodyLimits } from "./body-limits.server";
import { answerForm, nothingAskedFor } from "./form-action.server";

/** A form posted to a page, as a browser posts it without JavaScript. */
function post(fields: Record<string, string>, path = "/admin/staff") {
  return new Request(`https://kilele.example${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
  });
}

/** What the action answered: its status, headers and result (React Router's data() or a Response). */
function answered(answer: unknown) {
  if (answer instanceof Response) return { status: answer.status, headers: answer.headers, result: undefined };
  const { data: result, init } = answer as { data: FormResult; init?: { status?: number; headers?: HeadersInit } };
  return { status: init?.status ?? 200, headers: new Headers(init?.headers), result };
}

describe("answering a form", () => {
  it("runs the handler the intent names and answers its message", async () => {
    const sent: string[] = [];
    const answer = await answerForm(post({ intent: "invite", email: "ann@example.org" }), {
      invite: async (form) => {
        sent.push(String(form.get("email")));
        return { message: "An invitation was sent." };
      },
      remove: async () => ({ message: "Removed." }),
    });
    expect(answered(answer)).toMatchObject({
      status: 200,
      result: { ok: true, intent: "invite", message: "An invitation was sent." },
    });
    expect(sent).toEqual(["ann@example.org"]);
  });

  it.each<[ErrorCode, number]>([
    ["invalid", 400],
    ["unauthorised", 401],
    ["forbidden", 403],
    ["challenge-required", 403],
    ["not-found", 404],
    ["method-not-allowed", 405],
    ["conflict", 409],
    ["payload-too-large", 413],
    ["unsupported-media-type", 415],
    ["too-many-requests", 429],
    ["unexpected", 500],
    ["provider-unavailable", 502],
  ])("answers a refusal (%s) with its status, its message, its fields and what was typed", async (code, status) => {
    const answer = await answerForm(post({ intent: "correct", name: "Ann 2", email: "ann@example.org" }), {
      correct: async () => {
        throw new AppError(code, "Please correct the fields marked.", { fields: { name: "Name is not a name." } });
      },
    });
    expect(answered(answer)).toEqual({
      status,
      headers: new Headers(),
      result: {
        ok: false,
        intent: "correct",
        message: "Please correct the fields marked.",
        fields: { name: "Name is not a name." },
        values: { intent: "correct", name: "Ann 2", email: "ann@example.org" },
        code,
      },
    });
  });

  it("keeps a refusal's headers (how long to wait) and never sends a password back", async () => {
    const answer = await answerForm(
      post({ email: "ann@example.org", password: "a long password", newPassword: "x" }),
      async () => {
        throw new AppError("too-many-requests", "Too many attempts.", { headers: { "Retry-After": "900" } });
      },
    );
    const { status, headers, result } = answered(answer);
    expect(status).toBe(429);
    expect(headers.get("Retry-After")).toBe("900");
    expect(result).toMatchObject({ ok: false, intent: "", message: "Too many attempts." });
    expect(result?.values).toEqual({ email: "ann@example.org" });
  });

  it.each<Record<string, string>>([
    {},
    { intent: "" },
    { intent: "erase-everything" },
    { intent: "constructor" },
    { intent: "__proto__" },
  ])("answers a post that asks for nothing the page does (%o) with one message, and runs nothing", async (fields) => {
    let ran = false;
    const answer = await answerForm(post(fields), {
      invite: async () => {
        ran = true;
        return { message: "Done." };
      },
    });
    expect(answered(answer)).toMatchObject({
      status: 400,
      result: { ok: false, intent: "", message: nothingAskedFor, code: "invalid" },
    });
    expect(ran).toBe(false);
  });

  it("lets a handler's redirect through as it is", async () => {
    const answer = await answerForm(post({ intent: "sign-out-everywhere" }), {
      "sign-out-everywhere": async () => redirect("/admin/sign-in"),
    });
    expect(answer).toBeInstanceOf(Response);
    expect((answer as Response).status).toBe(302);
    expect((answer as Response).headers.get("Location")).toBe("/admin/sign-in");
  });

  it("sends a thrown Response and anything unexpected on to the page's own handling", async () => {
    const thrown = redirect("/admin/sign-in");
    await expect(
      answerForm(post({ intent: "go" }), {
        go: async () => {
          throw thrown;
        },
      }),
    ).rejects.toBe(thrown);
    const broken = new Error("relation does not exist");
    await expect(
      answerForm(post({ intent: "go" }), {
        go: async () => {
          throw broken;
        },
      }),
    ).rejects.toBe(broken);
  });

  it("runs the intent's first word, leaving the rest to the handler (a list button)", async () => {
    const answer = await answerForm(post({ intent: "remove team.2" }), {
      remove: async (form) => ({ message: "", focus: String(form.get("intent")).split(" ")[1] }),
    });
    expect(answered(answer).result).toMatchObject({ ok: true, intent: "remove", focus: "team.2" });
  });

  it("answers a handler's own refusal with the values it gives back", async () => {
    const answer = await answerForm(
      post({ intent: "save", name: "" }),
      {
        save: async () => ({
          ok: false,
          message: "Nothing was saved.",
          fields: { name: "is empty" },
          values: { stored: 1 },
        }),
      },
      { values: () => ({ stored: 0 }) },
    );
    expect(answered(answer)).toMatchObject({
      status: 400,
      result: { ok: false, intent: "save", code: "invalid", values: { stored: 1 }, fields: { name: "is empty" } },
    });
  });

  it("reads a form within its route's limit, and refuses a larger one before any handler runs", async () => {
    let ran = false;
    const large = post({ intent: "invite", email: "x".repeat(bodyLimits.staff) });
    await expect(
      answerForm(large, {
        invite: async () => {
          ran = true;
          return { message: "Done." };
        },
      }),
    ).rejects.toMatchObject({ code: "payload-too-large" });
    expect(ran).toBe(false);
    // The same body is within the page editor's limit.
    const answer = await answerForm(
      post({ intent: "draft", title: "x".repeat(bodyLimits.staff) }, "/admin/pages/home"),
      {
        draft: async () => ({ message: "Draft saved." }),
      },
    );
    expect(answered(answer).status).toBe(200);
  });
});
