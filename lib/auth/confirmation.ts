/** The words DELETE /api/account requires; shared with the account page's form (browser-safe). */
export const DELETE_CONFIRMATION = "delete my account";
