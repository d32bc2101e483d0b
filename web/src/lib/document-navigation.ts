/**
 * Loads another page of the site as a new document: the way from one entry of the app to the other
 * (the student pages to `/`). An object, so that tests can watch it where jsdom cannot navigate.
 */
export const documentNavigation = {
  replace: (url: string) => window.location.replace(url),
};
