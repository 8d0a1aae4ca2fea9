module.exports = require('./_rest.js')["serve"];
