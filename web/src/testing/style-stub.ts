// Stylesheets have no behaviour to test; jest maps every `.css` import to this empty module.
export default {};
