module.exports = require('./_rest.js')["update"];
