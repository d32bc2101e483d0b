/* The admin app's words for students: one file of the admin catalogue (see ./index.ts); its ids start with its name. */
export default {} satisfies Record<`students.${string}`, string>;
