/**
 * The spec gives the platform no name; this one is a placeholder kept in a single place so the
 * sidebar, drawer, footer and the sign-in card change together when the real name is known.
 */
export const productName = 'Fraud Recovery Portal';
