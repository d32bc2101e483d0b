/* The admin app's words for auth: one file of the admin catalogue (see ./index.ts); its ids start with its name. */
export default {} satisfies Record<`auth.${string}`, string>;
