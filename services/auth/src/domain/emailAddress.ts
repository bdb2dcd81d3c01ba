/** The form an address is stored, looked up and hashed in: no surrounding spaces, lower case. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}
