/** What the booking form asks of a card form, whichever provider is behind it. */
export interface CardFormHandle {
  /** Checks what was entered before anything is held; a message when it is incomplete. */
  check(): Promise<string | undefined>;
  /**
   * Completes the payment for a started booking. On success the page moves on to `returnUrl`
   * (and the promise does not settle); otherwise it resolves with the message to show.
   */
  pay(clientSecret: string, returnUrl: string, email: string): Promise<string | undefined>;
}

export const unexpectedError = (message: string) => `An unexpected error occurred: ${message}`;
