/* The admin app's words for audit: one file of the admin catalogue (see ./index.ts); its ids start with its name. */
export default {} satisfies Record<`audit.${string}`, string>;
