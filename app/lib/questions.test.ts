import { describe, expect, it } from "vitest";
import { answerMessages, answersCell, checkAnswers, type AskedQuestion } from "./questions";

const meal: AskedQuestion = {
  id: "meal",
  question: "Meal",
  answerType: "choice",
  choices: ["Beef", "Fish", "Vegetarian"],
  required: true,
  perAttendee: false,
};
const diet: AskedQuestion = {
  id: "diet",
  question: "Dietary needs",
  answerType: "text",
  choices: [],
  required: false,
  perAttendee: true,
};
const parking: AskedQuestion = {
  ...diet,
  id: "parking",
  question: "Parking?",
  answerType: "yes-no",
  perAttendee: false,
};

describe("a booking's answers (decision 083)", () => {
  it("takes one answer per booking and one per attendee, leaving out the empty ones", () => {
    expect(checkAnswers([meal, diet, parking], { meal: "Fish", diet: ["Vegan", " "], parking: "yes" }, 2)).toEqual({
      ok: true,
      rows: [
        { questionId: "meal", attendee: 0, answer: "Fish" },
        { questionId: "diet", attendee: 1, answer: "Vegan" },
        { questionId: "parking", attendee: 0, answer: "Yes" },
      ],
    });
  });

  it("refuses a missing required answer, a choice not listed, a yes/no that is neither, and an answer too long", () => {
    expect(
      checkAnswers([meal, diet, parking], { meal: "Pizza", diet: ["x".repeat(201)], parking: "maybe" }, 1),
    ).toEqual({
      ok: false,
      errors: {
        "answers.meal": answerMessages.choice,
        "answers.diet.1": answerMessages.tooLong,
        "answers.parking": answerMessages.yesNo,
      },
    });
    expect(checkAnswers([meal], {}, 1)).toEqual({ ok: false, errors: { "answers.meal": answerMessages.required } });
    expect(checkAnswers([{ ...diet, required: true }], { diet: ["Vegan"] }, 2)).toEqual({
      ok: false,
      errors: { "answers.diet.2": answerMessages.required },
    });
  });

  it("refuses answers to questions the event does not ask, more answers than attendees, and what is not text", () => {
    expect(checkAnswers([meal], { meal: "Fish", other: "x" }, 1).ok).toBe(false);
    expect(checkAnswers([diet], { diet: ["a", "b", "c"] }, 2).ok).toBe(false);
    expect(checkAnswers([meal], { meal: 3 }, 1).ok).toBe(false);
    expect(checkAnswers([meal], "Fish", 1).ok).toBe(false);
  });

  it("writes a question's answers in one cell of the CSV", () => {
    expect(answersCell([{ attendee: 0, answer: "Fish" }])).toBe("Fish");
    expect(
      answersCell([
        { attendee: 2, answer: "None" },
        { attendee: 1, answer: "Vegan" },
      ]),
    ).toBe("1: Vegan; 2: None");
  });
});
